import bs58 from "bs58";
import { badRequest } from "./errors.js";

/** A base58 text that decodes to exactly 32 bytes (a Solana public key or PDA). */
export type Address = string & { readonly __brand: "Address" };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** True when `value` is a base58 string decoding to exactly 32 bytes. */
export function isAddress(value: unknown): value is Address {
  // 32 bytes encode to 32..44 base58 characters; the bound also keeps bs58 from decoding huge inputs.
  if (typeof value !== "string" || value.length < 32 || value.length > 44 || !BASE58.test(value)) {
    return false;
  }
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
}

/** Returns `value` as an Address, or throws a 400 with `errorText` when it is not a base58 32-byte key. */
export function parseAddress(value: unknown, errorText: string): Address {
  if (!isAddress(value)) throw badRequest(errorText);
  return value;
}
