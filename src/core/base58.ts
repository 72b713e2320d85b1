/**
 * Base58 (Bitcoin alphabet) encoding, the same text as `bs58.encode` (base-x), for the request path (issue 18:
 * every trade encodes its signature). base-x converts one base-58 digit at a time and builds its answer one
 * `+=` per character (an intermediate string per digit: about 3 KB of garbage and 10 µs for a 64-byte
 * signature). Here the conversion works on limbs of five digits (58^5 < 2^30, and a limb times 256 plus a byte
 * stays an exact double), a fifth of the steps, and the characters are laid out in one buffer whose text is the
 * only string made.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const LIMB = 58 ** 5;
// Base-58 digits per input byte: log(256) / log(58).
const FACTOR = Math.log(256) / Math.log(58);

/** `bytes` in base58, leading zero bytes as leading "1"s. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeroes = 0;
  while (zeroes < bytes.length && bytes[zeroes] === 0) zeroes++;
  // Little-endian limbs of the number the bytes after the leading zeros spell (big-endian).
  const limbs = new Array<number>(Math.ceil(((bytes.length - zeroes) * FACTOR + 1) / 5) + 1).fill(0);
  let used = 0;
  for (let p = zeroes; p < bytes.length; p++) {
    let carry = bytes[p]!;
    for (let i = 0; i < used; i++) {
      const x = limbs[i]! * 256 + carry;
      carry = Math.floor(x / LIMB);
      limbs[i] = x - carry * LIMB;
    }
    while (carry > 0) {
      const q = Math.floor(carry / LIMB);
      limbs[used++] = carry - q * LIMB;
      carry = q;
    }
  }
  // Five digits per limb, last digit at the end of the buffer; the top limb's leading zero digits are dropped.
  const size = zeroes + used * 5;
  const out = Buffer.allocUnsafe(size);
  let at = size;
  for (let i = 0; i < used; i++) {
    let v = limbs[i]!;
    for (let k = 0; k < 5; k++) {
      const q = Math.floor(v / 58);
      out[--at] = CODES[v - q * 58]!;
      v = q;
    }
  }
  let start = zeroes;
  while (start < size && out[start] === CODES[0]) start++;
  // The leading zero bytes' "1"s sit right before the first significant digit.
  for (let i = start - zeroes; i < start; i++) out[i] = CODES[0]!;
  return out.toString("latin1", start - zeroes, size);
}
