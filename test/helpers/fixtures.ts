/** Small fixture builders shared by the unit tests. */
import bs58 from "bs58";
import type { Address } from "../../src/domain/addresses.js";

/** A valid, distinct base58 address: 32 bytes of `n`. */
export const addr = (n: number): Address => bs58.encode(Buffer.alloc(32, n)) as Address;
