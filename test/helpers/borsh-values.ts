/**
 * Seeded random field values for event bodies encoded with an IDL's coder (the direct event decoders' tests):
 * integers at their edges half the time, keys with leading zero bytes, the zero key and all 0xff, and names of
 * every UTF-8 width.
 */
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { seededRandom } from "./seeded-random.js";

/** u64 values at the edges (byte, 32-bit, 53-bit and sign boundaries). */
export const U64_EDGES = [
  0n,
  1n,
  255n,
  256n,
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 53n + 1n,
  2n ** 63n - 1n,
  2n ** 63n,
  2n ** 64n - 1n,
];
/** i64 values at the edges. */
export const I64_EDGES = [-(2n ** 63n), -(2n ** 63n) + 1n, -1n, 0n, 1n, 2n ** 31n, 2n ** 63n - 1n];
/** i128 values at the edges. */
export const I128_EDGES = [-(2n ** 127n), -(2n ** 64n), -1n, 0n, 1n, 2n ** 64n, 2n ** 127n - 1n];

/** Random values from `seed`; `names` are the strings `text` picks half the time (random code points otherwise). */
export function borshValues(seed: number, names: readonly string[]) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const edgeOr = (edges: readonly bigint[], random: () => bigint) =>
    new BN((next() < 0.5 ? edges[int(edges.length)]! : random()).toString());
  return {
    next,
    int,
    bytes,
    u64: () => edgeOr(U64_EDGES, () => bytes(8).readBigUInt64LE(0)),
    i64: () => edgeOr(I64_EDGES, () => bytes(8).readBigInt64LE(0)),
    i128: () => edgeOr(I128_EDGES, () => (bytes(8).readBigInt64LE(0) << 64n) | bytes(8).readBigUInt64LE(0)),
    bool: () => next() < 0.5,
    /** Keys: random, with leading zero bytes (base58 "1"s), the zero key, all 0xff. */
    key: () => {
      const r = next();
      if (r < 0.1) return PublicKey.default;
      if (r < 0.15) return new PublicKey(Buffer.alloc(32, 0xff));
      if (r < 0.3) return new PublicKey(Buffer.concat([Buffer.alloc(1 + int(4)), bytes(32)]).subarray(0, 32));
      return new PublicKey(bytes(32));
    },
    text: () => {
      if (next() < 0.5) return names[int(names.length)]!;
      // Random code points of every UTF-8 width (surrogates skipped: a lone one is not text).
      const points = Array.from({ length: int(24) }, () => {
        const p = int([0x80, 0x800, 0xd800, 0x110000][int(4)]!);
        return p >= 0xd800 && p < 0xe000 ? 0x41 : p;
      });
      return String.fromCodePoint(...points);
    },
  };
}
