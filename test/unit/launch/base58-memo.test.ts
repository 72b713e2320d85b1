import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { installBase58Memo } from "../../../src/launch/base58-memo.js";

describe("installBase58Memo", () => {
  it("keeps toBase58 (and toString / toJSON) exact for every key, memoized or not", () => {
    installBase58Memo();
    installBase58Memo();
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const key = new PublicKey(bytes);
        const text = bs58.encode(bytes);
        expect(key.toBase58()).toBe(text);
        expect(key.toBase58()).toBe(text);
        expect(key.toString()).toBe(text);
        expect(JSON.stringify({ key })).toBe(JSON.stringify({ key: text }));
        expect(new PublicKey(text).toBase58()).toBe(text);
      }),
      { numRuns: 200 },
    );
    expect(PublicKey.default.toBase58()).toBe("11111111111111111111111111111111");
    const kp = Keypair.generate();
    expect(kp.publicKey.toBase58()).toBe(bs58.encode(kp.publicKey.toBytes()));
  });
});
