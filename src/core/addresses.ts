import bs58 from "bs58";
import { badRequest } from "./errors.js";

/** A base58 text that decodes to exactly 32 bytes (a Solana public key or PDA). */
/** A base58 public key as text: 32 to 44 characters of the base58 alphabet. */
export const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export type Address = string & { readonly __brand: "Address" };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

// Texts already found valid: every trade names its mint again, and the check is a pure function of the text
// (a base58 decode, a few microseconds). Bounded: emptied when full.
const KNOWN_CAPACITY = 4_096;
const known = new Set<string>();

/** True when `value` is a base58 string decoding to exactly 32 bytes. */
export function isAddress(value: unknown): value is Address {
  // 32 bytes encode to 32..44 base58 characters; the bound also keeps bs58 from decoding huge inputs.
  if (typeof value !== "string" || value.length < 32 || value.length > 44) return false;
  if (known.has(value)) return true;
  if (!BASE58.test(value)) return false;
  let valid: boolean;
  try {
    valid = bs58.decode(value).length === 32;
  } catch {
    valid = false;
  }
  if (valid) {
    if (known.size >= KNOWN_CAPACITY) known.clear();
    known.add(value);
  }
  return valid;
}

/** Returns `value` as an Address, or throws a 400 with `errorText` when it is not a base58 32-byte key. */
export function parseAddress(value: unknown, errorText: string): Address {
  if (!isAddress(value)) throw badRequest(errorText);
  return value;
}
