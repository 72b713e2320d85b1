/**
 * Reading a transaction an outside wallet signed (issue 32): the wire format (compact-u16 signature count, the
 * signatures, the message), its fee payer and an ed25519 check of every required signature. Pure.
 */
import { createPublicKey, verify } from "node:crypto";
import { badRequest } from "../../core/errors.js";
import { encodeBase58 } from "../../core/base58.js";
import { OUTSIDE } from "./texts.js";

/** A signed transaction as sent: its bytes, its message and who signed it. */
export interface SignedTransaction {
  wire: Uint8Array;
  message: Uint8Array;
  /** The first signature, base58: the transaction id. */
  signature: string;
  /** The fee payer (the first static account key), base58. */
  feePayer: string;
}

// The DER prefix of an ed25519 SubjectPublicKeyInfo; the 32 key bytes follow.
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function compactU16(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const b = bytes[at + i];
    if (b === undefined) throw badRequest(OUTSIDE.transactionMalformed);
    value |= (b & 0x7f) << (7 * i);
    if ((b & 0x80) === 0) return { value, next: at + i + 1 };
  }
  throw badRequest(OUTSIDE.transactionMalformed);
}

/** Whether `signature` is `signer`'s ed25519 signature of `message`. */
export function verifyEd25519(message: Uint8Array, signature: Uint8Array, signer: Uint8Array): boolean {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, signer]),
    format: "der",
    type: "spki",
  });
  return verify(null, message, key, signature);
}

/**
 * Decodes base64 `text` into a signed transaction; a 400 when it is not a well-formed legacy or v0 transaction,
 * or when a required signature does not verify for its signer.
 */
export function readSignedTransaction(text: string): SignedTransaction {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw badRequest(OUTSIDE.transactionMalformed);
  const wire = new Uint8Array(Buffer.from(text, "base64"));
  const count = compactU16(wire, 0);
  const messageAt = count.next + 64 * count.value;
  if (count.value === 0 || wire.length <= messageAt + 3) throw badRequest(OUTSIDE.transactionMalformed);
  const message = wire.subarray(messageAt);
  // A v0 message opens with 0x80; a legacy one with its header directly.
  const versioned = (message[0]! & 0x80) !== 0;
  if (versioned && (message[0]! & 0x7f) !== 0) throw badRequest(OUTSIDE.transactionMalformed);
  const header = versioned ? 1 : 0;
  const required = message[header]!;
  if (required !== count.value) throw badRequest(OUTSIDE.transactionMalformed);
  const keys = compactU16(message, header + 3);
  if (keys.value < required || message.length < keys.next + 32 * keys.value)
    throw badRequest(OUTSIDE.transactionMalformed);
  for (let i = 0; i < required; i++) {
    const signature = wire.subarray(count.next + 64 * i, count.next + 64 * (i + 1));
    const signer = message.subarray(keys.next + 32 * i, keys.next + 32 * (i + 1));
    if (!verifyEd25519(message, signature, signer)) throw badRequest(OUTSIDE.signatureInvalid);
  }
  return {
    wire,
    message,
    signature: encodeBase58(wire.subarray(count.next, count.next + 64)),
    feePayer: encodeBase58(message.subarray(keys.next, keys.next + 32)),
  };
}
