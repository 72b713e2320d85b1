/**
 * Pure rules over a client transaction's wire bytes: decoding, ed25519 signature checks, the
 * compute-budget instructions and the fee they imply, and static tip detection for the relays.
 */
// A CommonJS module whose exports Node cannot list statically: default import only.
import sodium from "sodium-native";
import bs58 from "bs58";
import { PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { InstructionErrorJson, TransactionErrorJson } from "./tx-errors.js";
import { TransactionRejected } from "./tx-errors.js";
import { decodeV0Transaction } from "./v0-decode.js";

export const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111";
const SYSTEM_PROGRAM_KEY = new PublicKey(SYSTEM_PROGRAM_ID);
export const COMPUTE_BUDGET_PROGRAM_ID = "ComputeBudget111111111111111111111111111111";
export const LAMPORTS_PER_SIGNATURE = 5000n;
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;
/** Largest transaction the cluster accepts (wire bytes). */
export const MAX_TRANSACTION_BYTES = 1232;
/** Most accounts one transaction may lock. */
const MAX_ACCOUNT_LOCKS = 64;

/** Decodes wire bytes; throws TransactionRejected(SanitizeFailure) when they are not a transaction. */
export function decodeTransaction(bytes: Uint8Array): VersionedTransaction {
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    throw new TransactionRejected(
      "SanitizeFailure",
      `transaction too large: ${bytes.length} bytes (max: raw ${MAX_TRANSACTION_BYTES})`,
    );
  }
  try {
    return decodeV0Transaction(bytes) ?? VersionedTransaction.deserialize(bytes);
  } catch (e) {
    throw new TransactionRejected(
      "SanitizeFailure",
      `failed to deserialize transaction: ${(e as Error).message}`,
    );
  }
}

/** Decodes a transaction string in the given RPC encoding (base58 when unspecified, as the RPC). */
export function decodeTransactionString(text: string, encoding: string | undefined): Uint8Array {
  if (encoding === "base64") return new Uint8Array(Buffer.from(text, "base64"));
  if (encoding === undefined || encoding === "base58") return bs58.decode(text);
  throw new Error(`unsupported encoding: ${encoding}`);
}

/** The first signature, base58 — the transaction id. */
export function transactionId(tx: VersionedTransaction): string {
  const sig = tx.signatures[0];
  return bs58.encode(sig ?? new Uint8Array(64));
}

/**
 * Whether `signature` is a valid ed25519 signature of `message` by the 32-byte public key, checked with libsodium
 * (sodium-native): about 56 µs of CPU per signature against 126-133 µs
 * for Node's `crypto.verify` with a cached key object (the localnet checks every send's signatures, and shares the
 * bench machine's cores with the service it serves). libsodium rejects non-canonical signatures and small-order
 * keys, as the cluster's strict verification does.
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  return sodium.crypto_sign_verify_detached(signature, message, publicKey);
}

/** Bytes of a compact-u16 ("shortvec") length prefix holding `n` in its minimal encoding. */
function shortvecBytes(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

/** The length `message.serialize()` would have: the decoded fields written back in minimal encodings. */
function canonicalMessageLength(tx: VersionedTransaction): number | null {
  if (tx.version !== "legacy" && tx.version !== 0) return null;
  const msg = tx.message;
  const keys = msg.staticAccountKeys.length;
  let n = (tx.version === 0 ? 1 : 0) + 3 + shortvecBytes(keys) + 32 * keys + 32;
  const ixs = msg.compiledInstructions;
  n += shortvecBytes(ixs.length);
  for (const ix of ixs) {
    n += 1 + shortvecBytes(ix.accountKeyIndexes.length) + ix.accountKeyIndexes.length;
    n += shortvecBytes(ix.data.length) + ix.data.length;
  }
  if (tx.version === 0) {
    const lookups = msg.addressTableLookups;
    n += shortvecBytes(lookups.length);
    for (const l of lookups) {
      n += 32 + shortvecBytes(l.writableIndexes.length) + l.writableIndexes.length;
      n += shortvecBytes(l.readonlyIndexes.length) + l.readonlyIndexes.length;
    }
  }
  return n;
}

/**
 * The signed message bytes of `tx`, decoded from `wire`: the wire's own bytes after the signatures when
 * they are exactly what `tx.message.serialize()` writes (same length, which rules out trailing bytes and
 * non-minimal length prefixes; the fields are read in the order they are written), else the serialization.
 * Re-serializing through web3.js was a tenth of the localnet's CPU per accepted send (issue 18).
 */
export function signedMessageBytes(tx: VersionedTransaction, wire?: Uint8Array): Uint8Array {
  if (wire !== undefined) {
    const expected = canonicalMessageLength(tx);
    // The signature count's own prefix, read as web3.js reads it (7 bits per byte, high bit: more follows).
    let off = 0;
    let count = 0;
    for (let shift = 0; off < wire.length && off < 3; shift += 7) {
      const b = wire[off++]!;
      count |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
    }
    const start = off + 64 * count;
    if (expected !== null && count === tx.signatures.length && wire.length - start === expected)
      return wire.subarray(start);
  }
  return tx.message.serialize();
}

/**
 * Checks that every required signer signed the message. Throws TransactionRejected(SignatureFailure)
 * naming the first signer whose signature is missing or wrong. `wire`, the bytes `tx` was decoded from,
 * spares re-serializing the message (see `signedMessageBytes`).
 */
export function verifySignatures(tx: VersionedTransaction, wire?: Uint8Array): void {
  const header = tx.message.header;
  const keys = tx.message.staticAccountKeys;
  if (tx.signatures.length !== header.numRequiredSignatures) {
    throw new TransactionRejected(
      "SignatureFailure",
      `signature count ${tx.signatures.length} does not match required signers ${header.numRequiredSignatures}`,
    );
  }
  const message = signedMessageBytes(tx, wire);
  for (let i = 0; i < header.numRequiredSignatures; i++) {
    const sig = tx.signatures[i]!;
    const key = keys[i]!;
    if (sig.every((b) => b === 0)) {
      throw new TransactionRejected("SignatureFailure", `missing signature for signer ${key.toBase58()}`);
    }
    if (!verifyEd25519(key.toBytes(), message, sig)) {
      throw new TransactionRejected("SignatureFailure", `invalid signature for signer ${key.toBase58()}`);
    }
  }
}

/** One instruction of a transaction with its accounts resolved. */
export interface ResolvedInstruction {
  programId: PublicKey;
  accounts: { pubkey: PublicKey; isSigner: boolean; isWritable: boolean }[];
  data: Uint8Array;
}

/** A transaction's full account list (static keys, then loaded writable, then loaded readonly). */
export interface ResolvedMessage {
  accountKeys: PublicKey[];
  writable: boolean[];
  signer: boolean[];
  loadedWritable: PublicKey[];
  loadedReadonly: PublicKey[];
  instructions: ResolvedInstruction[];
}

/** Reads the addresses held by an address lookup table account (56-byte header, then 32-byte keys). */
export function lookupTableAddresses(data: Uint8Array): PublicKey[] {
  const out: PublicKey[] = [];
  for (let off = 56; off + 32 <= data.length; off += 32)
    out.push(new PublicKey(data.subarray(off, off + 32)));
  return out;
}

/**
 * Resolves account keys, flags and instructions; `loadTable` returns a lookup table's addresses or
 * null when the table does not exist.
 */
export function resolveMessage(
  tx: VersionedTransaction,
  loadTable: (key: PublicKey) => PublicKey[] | null,
): ResolvedMessage {
  const msg = tx.message;
  const loadedWritable: PublicKey[] = [];
  const loadedReadonly: PublicKey[] = [];
  for (const lookup of msg.addressTableLookups) {
    const table = loadTable(lookup.accountKey);
    if (table === null) {
      throw new TransactionRejected(
        "AddressLookupTableNotFound",
        `address lookup table ${lookup.accountKey.toBase58()} not found`,
      );
    }
    for (const [indexes, into] of [
      [lookup.writableIndexes, loadedWritable],
      [lookup.readonlyIndexes, loadedReadonly],
    ] as const) {
      for (const i of indexes) {
        const key = table[i];
        if (key === undefined) {
          throw new TransactionRejected("InvalidAddressLookupTableIndex", `lookup index ${i} out of range`);
        }
        into.push(key);
      }
    }
  }
  const staticKeys = msg.staticAccountKeys;
  const accountKeys = [...staticKeys, ...loadedWritable, ...loadedReadonly];
  if (accountKeys.length > MAX_ACCOUNT_LOCKS) {
    throw new TransactionRejected(
      "TooManyAccountLocks",
      `transaction locks ${accountKeys.length} accounts (max 64)`,
    );
  }
  const h = msg.header;
  const numStatic = staticKeys.length;
  const writable = accountKeys.map((_k, i) => {
    if (i >= numStatic) return i < numStatic + loadedWritable.length;
    if (i < h.numRequiredSignatures) return i < h.numRequiredSignatures - h.numReadonlySignedAccounts;
    return i < numStatic - h.numReadonlyUnsignedAccounts;
  });
  const signer = accountKeys.map((_k, i) => i < h.numRequiredSignatures);
  const instructions = msg.compiledInstructions.map((ix) => {
    const programId = accountKeys[ix.programIdIndex];
    if (programId === undefined)
      throw new TransactionRejected("SanitizeFailure", "program id index out of range");
    return {
      programId,
      data: ix.data,
      accounts: ix.accountKeyIndexes.map((i) => {
        const pubkey = accountKeys[i];
        if (pubkey === undefined)
          throw new TransactionRejected("SanitizeFailure", "account index out of range");
        return { pubkey, isSigner: signer[i]!, isWritable: writable[i]! };
      }),
    };
  });
  return { accountKeys, writable, signer, loadedWritable, loadedReadonly, instructions };
}

/** Compute-budget settings a transaction requests. */
export interface ComputeBudgetRequest {
  unitLimit: bigint;
  unitPriceMicroLamports: bigint;
}

/** A compute-budget instruction error: the failing instruction's index and error. */
export class ComputeBudgetError extends Error {
  constructor(readonly err: TransactionErrorJson) {
    super("invalid compute budget instruction");
  }
}

function readU32(data: Uint8Array, off: number): bigint {
  return BigInt(Buffer.from(data).readUInt32LE(off));
}

function readU64(data: Uint8Array, off: number): bigint {
  return Buffer.from(data).readBigUInt64LE(off);
}

/**
 * Parses the compute-budget instructions like the runtime: duplicate kinds fail with
 * DuplicateInstruction, malformed data with InvalidInstructionData; without SetComputeUnitLimit the
 * limit is 200,000 per other instruction, capped at 1,400,000.
 */
export function parseComputeBudget(instructions: ResolvedInstruction[]): ComputeBudgetRequest {
  let limit: bigint | null = null;
  let price: bigint | null = null;
  const seen = new Set<number>();
  let others = 0n;
  instructions.forEach((ix, index) => {
    if (ix.programId.toBase58() !== COMPUTE_BUDGET_PROGRAM_ID) {
      others += 1n;
      return;
    }
    const tag = ix.data[0];
    const bad = (): never => {
      const ie: InstructionErrorJson = "InvalidInstructionData";
      throw new ComputeBudgetError({ InstructionError: [index, ie] });
    };
    if (tag === undefined) bad();
    if (seen.has(tag!)) throw new ComputeBudgetError({ DuplicateInstruction: index });
    seen.add(tag!);
    if (tag === 2) {
      if (ix.data.length !== 5) bad();
      limit = readU32(ix.data, 1);
    } else if (tag === 3) {
      if (ix.data.length !== 9) bad();
      price = readU64(ix.data, 1);
    } else if (tag === 1 || tag === 4) {
      if (ix.data.length !== 5) bad();
    } else {
      bad();
    }
  });
  const defaultLimit = others * DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
  const requested: bigint = limit ?? defaultLimit;
  return {
    unitLimit: requested > MAX_COMPUTE_UNIT_LIMIT ? MAX_COMPUTE_UNIT_LIMIT : requested,
    unitPriceMicroLamports: price ?? 0n,
  };
}

/** The fee of a transaction: 5000 lamports per signature plus ceil(CU price × CU limit / 1e6). */
export function transactionFee(numSignatures: number, budget: ComputeBudgetRequest): bigint {
  const micro = budget.unitPriceMicroLamports * budget.unitLimit;
  const priority = (micro + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(numSignatures) + priority;
}

/**
 * Lamports a transaction sends to any of `tipAccounts` by top-level System Transfer instructions
 * whose destination is a static account key (CPI tips and lookup-table tips are not seen).
 */
export function staticTipLamports(tx: VersionedTransaction, tipAccounts: ReadonlySet<string>): bigint {
  const keys = tx.message.staticAccountKeys;
  let total = 0n;
  for (const ix of tx.message.compiledInstructions) {
    const program = keys[ix.programIdIndex];
    // Compared as keys, not base58 strings: encoding every instruction's program id was most of this check.
    if (program === undefined || !program.equals(SYSTEM_PROGRAM_KEY)) continue;
    if (ix.data.length !== 12 || Buffer.from(ix.data).readUInt32LE(0) !== 2) continue;
    const destIndex = ix.accountKeyIndexes[1];
    if (destIndex === undefined || destIndex >= keys.length) continue;
    if (tipAccounts.has(keys[destIndex]!.toBase58())) total += readU64(ix.data, 4);
  }
  return total;
}
