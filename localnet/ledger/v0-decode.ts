/**
 * A direct decoding of the common client transaction: version 0, fewer than 128 signatures, every field in
 * bounds and no byte left over. web3.js's `VersionedTransaction.deserialize` copies the bytes into a plain
 * array twice (spread through the iterator) and takes them apart with shift/splice; that was a fifth of the
 * localnet's CPU per accepted send (issue 18), on a machine it shares with the service it serves. This reads
 * the same fields in the same order and builds the same objects through web3.js's own constructors; anything
 * else (legacy or other versions, truncated or longer bytes) returns null, and web3.js decodes it as before,
 * so its errors and its leniencies stay what they were.
 */
import bs58 from "bs58";
import { MessageV0, PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { MessageAddressTableLookup, MessageCompiledInstruction } from "@solana/web3.js";

const SIGNATURE_BYTES = 64;
const KEY_BYTES = 32;
const V0_PREFIX = 0x80;

/** A cursor over wire bytes; `ok` turns false at the first read past the end (the caller then gives up). */
class Reader {
  off = 0;
  ok = true;

  constructor(private readonly bytes: Uint8Array) {}

  u8(): number {
    if (this.off >= this.bytes.length) {
      this.ok = false;
      return 0;
    }
    return this.bytes[this.off++]!;
  }

  /** A compact-u16 length, read as web3.js's decodeLength reads it (any number of 7-bit groups). */
  length(): number {
    let len = 0;
    for (let size = 0; ; size++) {
      const b = this.u8();
      if (!this.ok) return 0;
      len |= (b & 0x7f) << (size * 7);
      if ((b & 0x80) === 0) return len;
    }
  }

  /** The next `n` bytes (a view), or an empty view once out of bounds. */
  take(n: number): Uint8Array {
    if (this.off + n > this.bytes.length) {
      this.ok = false;
      return new Uint8Array(0);
    }
    const out = this.bytes.subarray(this.off, this.off + n);
    this.off += n;
    return out;
  }

  /** The next `n` bytes as numbers (web3.js keeps index lists as plain arrays). */
  numbers(n: number): number[] {
    const view = this.take(n);
    const out = new Array<number>(view.length);
    for (let i = 0; i < view.length; i++) out[i] = view[i]!;
    return out;
  }

  done(): boolean {
    return this.ok && this.off === this.bytes.length;
  }
}

/**
 * The version-0 transaction `bytes` hold, decoded as web3.js decodes it, or null when they are not the common
 * well-formed case (the caller falls back to web3.js).
 */
export function decodeV0Transaction(bytes: Uint8Array): VersionedTransaction | null {
  // A first byte with its high bit set is a multi-byte signature count or web3.js's version-1 layout.
  if (bytes.length === 0 || (bytes[0]! & 0x80) !== 0) return null;
  const r = new Reader(bytes);
  const signatureCount = r.u8();
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < signatureCount; i++) signatures.push(r.take(SIGNATURE_BYTES).slice());
  if (!r.ok || r.u8() !== V0_PREFIX) return null;
  const header = {
    numRequiredSignatures: r.u8(),
    numReadonlySignedAccounts: r.u8(),
    numReadonlyUnsignedAccounts: r.u8(),
  };
  const keyCount = r.length();
  if (!r.ok || r.off + keyCount * KEY_BYTES > bytes.length) return null;
  const staticAccountKeys: PublicKey[] = [];
  for (let i = 0; i < keyCount; i++) staticAccountKeys.push(new PublicKey(r.take(KEY_BYTES)));
  const blockhash = r.take(KEY_BYTES);
  if (!r.ok) return null;
  const recentBlockhash = bs58.encode(blockhash);
  const instructionCount = r.length();
  const compiledInstructions: MessageCompiledInstruction[] = [];
  for (let i = 0; i < instructionCount && r.ok; i++) {
    const programIdIndex = r.u8();
    const accountKeyIndexes = r.numbers(r.length());
    const data = r.take(r.length()).slice();
    compiledInstructions.push({ programIdIndex, accountKeyIndexes, data });
  }
  const lookupCount = r.length();
  const addressTableLookups: MessageAddressTableLookup[] = [];
  for (let i = 0; i < lookupCount && r.ok; i++) {
    const key = r.take(KEY_BYTES);
    if (!r.ok) return null;
    const accountKey = new PublicKey(key);
    const writableIndexes = r.numbers(r.length());
    const readonlyIndexes = r.numbers(r.length());
    addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
  }
  if (!r.done()) return null;
  // The signature count must match the header: web3.js's constructor asserts it (and throws the same way here).
  if (signatureCount !== header.numRequiredSignatures) return null;
  const message = new MessageV0({
    header,
    staticAccountKeys,
    recentBlockhash,
    compiledInstructions,
    addressTableLookups,
  });
  return new VersionedTransaction(message, signatures);
}
