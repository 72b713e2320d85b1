import { AddressLookupTableAccount, Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { setComputeUnitLimit, setComputeUnitPrice, systemTransfer } from "./budget-instructions.js";
import { computeUnitPriceFor } from "../core/fee-fields.js";
import { encodeBase58 } from "../core/base58.js";
import { signEd25519 } from "./ed25519.js";
import { compactU16Length, compileMessage, MessageCompileError, writeCompactU16 } from "./message-compile.js";

/** The largest serialized transaction the cluster accepts (IPv6 MTU minus headers). */
export const MAX_TRANSACTION_BYTES = 1232;

/** The runtime's ceiling for a transaction's compute-unit limit. */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

/** How many distinct compute-unit-limit offsets the uniqueness scheme cycles through. */
export const UNIQUE_OFFSET_SPAN = 4096;

/** A transaction that does not fit the packet limit; thrown before anything is signed or sent. */
export class TransactionTooLargeError extends Error {
  constructor(
    readonly size: number,
    options?: ErrorOptions,
  ) {
    super(`transaction is ${size} bytes, over the ${MAX_TRANSACTION_BYTES}-byte limit`, options);
    this.name = "TransactionTooLargeError";
  }
}

/** Inputs of `assembleTransaction`. */
export interface AssembleInput {
  /**
   * Fee payer and first signer: the managed wallet, or an outside wallet's public key (issue 32: the transaction
   * is then left unsigned, its signature slots zero, for the outside signer to sign).
   */
  payer: Keypair | PublicKey;
  /** Other required signers (e.g. the new mint keypair of a create). */
  extraSigners?: Keypair[];
  /** The operation's instructions (SDK-built), placed after the compute-budget instructions. */
  instructions: TransactionInstruction[];
  computeUnitLimit: number;
  computeUnitPriceMicroLamports: bigint;
  /**
   * Issue 22: a priority fee in lamports instead of a price; the price is derived from the limit actually
   * written (uniqueness offset included), so the transaction pays exactly this much (see computeUnitPriceFor).
   */
  priorityFeeLamports?: bigint;
  /** Relay tip, paid by the payer to one of `accounts` chosen at random; omitted for untipped legs. */
  tip?: { accounts: PublicKey[]; lamports: bigint };
  blockhash: string;
  /**
   * Placed before the compute-budget instructions: a durable-nonce transaction's AdvanceNonceAccount, which
   * must be its first instruction (its blockhash is then the nonce's value, not a recent one).
   */
  firstInstruction?: TransactionInstruction;
  /** "v0" (default) or "legacy". */
  version?: "v0" | "legacy";
  lookupTables?: AddressLookupTableAccount[];
  /**
   * Added to the compute-unit limit so that two otherwise identical transactions get different bytes (and
   * signatures). Give each call a distinct value (see `createUniqueOffsets`); default: random.
   */
  uniqueOffset?: number;
  /** Uniform [0, 1) for the tip-account choice and the default offset. */
  random?: () => number;
  /**
   * Issue 29: shown the whole transaction once compiled and before anything is signed; throws to refuse it
   * (the key's spend caps judge the transaction that would be signed, not the request's body).
   */
  inspect?: (tx: TransactionToSign) => void;
}

/** What `AssembleInput.inspect` is shown: every instruction in order, the signature count, the tip accounts. */
export interface TransactionToSign {
  instructions: readonly TransactionInstruction[];
  signatureCount: number;
  tipAccounts: readonly PublicKey[];
}

/** A signed transaction ready to send. */
export interface AssembledTransaction {
  /** First signature, base58: the transaction id, known before sending. */
  signature: string;
  wire: Uint8Array;
  /** The compute-unit limit actually written (requested limit plus the uniqueness offset). */
  computeUnitLimit: number;
  /** The compute-unit price actually written. */
  computeUnitPriceMicroLamports: bigint;
  tipAccount: PublicKey | null;
}

/**
 * Builds and signs: [set CU limit, set CU price, ...instructions, tip transfer], fee payer = payer.
 * Throws TransactionTooLargeError past 1232 bytes.
 */
export function assembleTransaction(input: AssembleInput): AssembledTransaction {
  const random = input.random ?? Math.random;
  const offset = input.uniqueOffset ?? Math.floor(random() * UNIQUE_OFFSET_SPAN);
  if (!Number.isInteger(offset) || offset < 0)
    throw new RangeError("uniqueOffset must be a non-negative integer");
  // Near the runtime ceiling the offset is subtracted instead, so it still changes the bytes.
  const computeUnitLimit =
    input.computeUnitLimit + offset <= MAX_COMPUTE_UNIT_LIMIT
      ? input.computeUnitLimit + offset
      : input.computeUnitLimit - offset;
  if (computeUnitLimit <= 0) throw new RangeError("computeUnitLimit must be positive");
  const price =
    input.priorityFeeLamports !== undefined
      ? computeUnitPriceFor(input.priorityFeeLamports, computeUnitLimit)
      : input.computeUnitPriceMicroLamports;
  if (price < 0n) throw new RangeError("compute-unit price must not be negative");

  const instructions: TransactionInstruction[] = [
    ...(input.firstInstruction !== undefined ? [input.firstInstruction] : []),
    setComputeUnitLimit(computeUnitLimit),
    setComputeUnitPrice(price),
    ...input.instructions,
  ];
  // web3.js's Keypair builds a new PublicKey (a BN from the bytes) on every `publicKey` read, and each new
  // instance is a new entry of message-compile's key memo: read it once per transaction.
  const payerKey = input.payer instanceof PublicKey ? input.payer : input.payer.publicKey;
  let tipAccount: PublicKey | null = null;
  if (input.tip) {
    const { accounts, lamports } = input.tip;
    if (accounts.length === 0) throw new RangeError("tip needs at least one tip account");
    if (lamports <= 0n) throw new RangeError("tip lamports must be positive");
    tipAccount = accounts[Math.floor(random() * accounts.length)] ?? accounts[0]!;
    instructions.push(systemTransfer(payerKey, tipAccount, lamports));
  }

  // One compile straight to bytes, one signature per signer, one wire copy (see message-compile.ts).
  let compiled;
  try {
    compiled = compileMessage({
      payer: payerKey,
      instructions,
      blockhash: input.blockhash,
      version: input.version ?? "v0",
      ...(input.lookupTables !== undefined ? { lookupTables: input.lookupTables } : {}),
      // Relays find the tip only among a message's static keys (Jito: never reference tip accounts through a
      // lookup table), so tip accounts stay static even when a table holds them.
      ...(input.tip !== undefined ? { keepStatic: input.tip.accounts } : {}),
    });
  } catch (e) {
    if (e instanceof MessageCompileError)
      throw new TransactionTooLargeError(estimateSize(instructions), { cause: e });
    throw e;
  }
  const prefix = compactU16Length(compiled.signers.length);
  const size = prefix + 64 * compiled.signers.length + compiled.bytes.length;
  if (size > MAX_TRANSACTION_BYTES) throw new TransactionTooLargeError(size);
  input.inspect?.({
    instructions,
    signatureCount: compiled.signers.length,
    tipAccounts: input.tip?.accounts ?? [],
  });
  // A view of Node's shared allocation pool, not an ArrayBuffer of its own: every young ArrayBuffer is one
  // more entry for each scavenge to sweep (issue 18), and a trade's wire lives only while it is in flight.
  // Not zeroed: every byte is written below (prefix, one signature per signer or a throw, the message).
  const unsignedPayer = input.payer instanceof PublicKey;
  // An unsigned transaction keeps zero signature slots (the outside signer fills them).
  const pooled = unsignedPayer ? Buffer.alloc(size) : Buffer.allocUnsafe(size);
  const wire = new Uint8Array(pooled.buffer, pooled.byteOffset, size);
  writeCompactU16(wire, 0, compiled.signers.length);
  wire.set(compiled.bytes, prefix + 64 * compiled.signers.length);
  // Signer positions written so far (one or two: a short array, no Set).
  const signed: number[] = [];
  const signAs = (kp: Keypair, key: PublicKey): void => {
    const at = compiled.signers.findIndex((k) => k.equals(key));
    if (at < 0) throw new Error(`Cannot sign with non signer key ${key.toBase58()}`);
    wire.set(signEd25519(compiled.bytes, kp), prefix + 64 * at);
    signed.push(at);
  };
  if (input.payer instanceof PublicKey) signed.push(0);
  else signAs(input.payer, payerKey);
  for (const kp of input.extraSigners ?? []) signAs(kp, kp.publicKey);
  // A required signer nobody passed would leave a zero signature that the relay refuses later.
  const unsigned = compiled.signers.find((_, i) => !signed.includes(i));
  if (unsigned !== undefined) throw new Error(`transaction needs a signature from ${unsigned.toBase58()}`);
  const first = wire.subarray(prefix, prefix + 64);
  return {
    // An unsigned transaction has no id yet: the outside signer's signature will be it.
    signature: unsignedPayer ? "" : encodeBase58(first),
    wire,
    computeUnitLimit,
    computeUnitPriceMicroLamports: price,
    tipAccount,
  };
}

/**
 * A per-process source of uniqueness offsets: a random start, then +1 per call, modulo UNIQUE_OFFSET_SPAN.
 * Within one process 4096 consecutive transactions get distinct offsets (so identical requests in one slot
 * never collide); across processes the random starts make a collision a 1-in-4096 event before the random
 * tip-account choice is even counted.
 */
export function createUniqueOffsets(random: () => number = Math.random): () => number {
  let next = Math.floor(random() * UNIQUE_OFFSET_SPAN);
  return () => {
    const value = next;
    next = (next + 1) % UNIQUE_OFFSET_SPAN;
    return value;
  };
}

// Wire size of a v0/legacy transaction without lookup tables, computed from the instructions.
function estimateSize(instructions: TransactionInstruction[]): number {
  const keys = new Set<string>();
  const signers = new Set<string>();
  let ixBytes = 0;
  for (const ix of instructions) {
    keys.add(ix.programId.toBase58());
    for (const k of ix.keys) {
      keys.add(k.pubkey.toBase58());
      if (k.isSigner) signers.add(k.pubkey.toBase58());
    }
    ixBytes += 1 + compactLen(ix.keys.length) + ix.keys.length + compactLen(ix.data.length) + ix.data.length;
  }
  const sigs = Math.max(1, signers.size);
  return (
    compactLen(sigs) +
    64 * sigs +
    1 +
    3 +
    compactLen(keys.size) +
    32 * keys.size +
    32 +
    compactLen(instructions.length) +
    ixBytes +
    1
  );
}

function compactLen(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}
