/** Wallet secrets built with node:crypto agree with web3.js and validate their public half. */
import { Keypair } from "@solana/web3.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  newSecretKey,
  publicHalfMatches,
  secretKeyFromSeed,
} from "../../../../src/domain/wallets/secret-keys.js";

describe("secret keys", () => {
  it("secretKeyFromSeed equals web3.js's secret key of the same seed, and leaves the seed alone", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const before = Uint8Array.from(seed);
        const secret = secretKeyFromSeed(seed);
        expect(Buffer.from(secret).equals(Buffer.from(Keypair.fromSeed(before).secretKey))).toBe(true);
        expect(seed).toEqual(before);
        expect(publicHalfMatches(secret)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("a new secret key is valid for web3.js and differs each time", () => {
    const a = newSecretKey();
    const b = newSecretKey();
    expect(publicHalfMatches(a)).toBe(true);
    expect(() => Keypair.fromSecretKey(a)).not.toThrow();
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it("a secret key whose public half was altered, or of the wrong length, does not match", () => {
    const s = newSecretKey();
    s[40] = (s[40] ?? 0) ^ 1;
    expect(publicHalfMatches(s)).toBe(false);
    expect(publicHalfMatches(new Uint8Array(63))).toBe(false);
  });
});
