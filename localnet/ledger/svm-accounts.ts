/** Conversions between LiteSVM's (@solana/kit) account shapes and the seam's AccountState. */
import { randomBytes } from "node:crypto";
import { address, getTransactionDecoder, lamports } from "@solana/kit";
import type { LiteSVM } from "litesvm";
import { PublicKey, TransactionMessage } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import type { AccountState } from "../programs/types.js";
import { SYSTEM_PROGRAM_ID } from "./wire.js";

/** The part of LiteSVM's native binding that reads an account by its 32 key bytes. */
interface NativeAccountReader {
  getAccount(pubkey: Uint8Array): {
    lamports(): bigint;
    data(): Uint8Array;
    owner(): Uint8Array;
    executable(): boolean;
  } | null;
}

/**
 * LiteSVM's native binding, when this version exposes it as `inner`. Its public getAccount converts the
 * address from base58 and the owner back to base58 on every call: under the soak load that was a third
 * of the localnet's CPU (docs/reliability.md). The ledger has the key bytes already, so reads go straight
 * to the binding; without it (another LiteSVM version) they take the public path.
 */
function nativeReader(svm: LiteSVM): NativeAccountReader | null {
  const inner = (svm as unknown as { inner?: Partial<NativeAccountReader> }).inner;
  return typeof inner?.getAccount === "function" ? (inner as NativeAccountReader) : null;
}

// Owners are few (system, token programs, the launch programs): one PublicKey per owner, not per read.
const owners = new Map<string, PublicKey>();
function ownerKey(bytes: Uint8Array): PublicKey {
  const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let key = owners.get(id);
  if (key === undefined) {
    if (owners.size > 10_000) owners.clear();
    key = new PublicKey(bytes);
    owners.set(id, key);
  }
  return key;
}

/** Reads an account; zero lamports with no data counts as missing. */
export function readAccount(svm: LiteSVM, key: PublicKey): AccountState | null {
  const native = nativeReader(svm);
  if (native !== null) {
    const raw = native.getAccount(key.toBytes());
    if (raw === null) return null;
    const lamportsHeld = raw.lamports();
    const data = raw.data();
    if (lamportsHeld === 0n && data.length === 0) return null;
    return {
      lamports: lamportsHeld,
      data: new Uint8Array(data),
      owner: ownerKey(raw.owner()),
      executable: raw.executable(),
    };
  }
  const acc = svm.getAccount(address(key.toBase58()));
  if (!acc.exists) return null;
  if (acc.lamports === 0n && acc.data.length === 0) return null;
  return {
    lamports: acc.lamports,
    data: new Uint8Array(acc.data),
    owner: new PublicKey(acc.programAddress),
    executable: acc.executable,
  };
}

/** Writes an account (null deletes it). */
export function writeAccount(svm: LiteSVM, key: PublicKey, state: AccountState | null): void {
  const s = state ?? {
    lamports: 0n,
    data: new Uint8Array(0),
    owner: new PublicKey(SYSTEM_PROGRAM_ID),
    executable: false,
  };
  svm.setAccount({
    address: address(key.toBase58()),
    lamports: lamports(s.lamports),
    data: new Uint8Array(s.data),
    programAddress: address(s.owner.toBase58()),
    executable: s.executable,
    space: BigInt(s.data.length),
  });
}

/** Whether two account states are the same (for restoring only what changed). */
export function sameAccount(a: AccountState | null, b: AccountState | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.lamports === b.lamports &&
    a.executable === b.executable &&
    a.owner.equals(b.owner) &&
    Buffer.from(a.data).equals(Buffer.from(b.data))
  );
}

/** The outcome of one internal LiteSVM transaction. */
export interface InternalRun {
  ok: boolean;
  /** LiteSVM's error object when !ok. */
  error: unknown;
  logs: string[];
  unitsConsumed: bigint;
  /** The internal transaction's account keys (index 0 = sponsor), to name accounts in errors. */
  accountKeys: PublicKey[];
}

/**
 * Runs one real-program instruction inside LiteSVM as its own transaction paid by `sponsor`, with
 * random signature bytes (LiteSVM runs without sigverify; random bytes avoid its duplicate check).
 */
export function runInternal(svm: LiteSVM, sponsor: PublicKey, ix: TransactionInstruction): InternalRun {
  const message = new TransactionMessage({
    payerKey: sponsor,
    recentBlockhash: svm.latestBlockhash(),
    instructions: [ix],
  }).compileToLegacyMessage();
  const n = message.header.numRequiredSignatures;
  const bytes = Buffer.concat([Buffer.from([n]), randomBytes(64 * n), message.serialize()]);
  const tx = getTransactionDecoder().decode(bytes);
  const res = svm.sendTransaction(tx);
  if ("err" in res) {
    const meta = res.meta();
    return {
      ok: false,
      error: res.err(),
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      accountKeys: message.accountKeys,
    };
  }
  return {
    ok: true,
    error: null,
    logs: res.logs(),
    unitsConsumed: res.computeUnitsConsumed(),
    accountKeys: message.accountKeys,
  };
}
