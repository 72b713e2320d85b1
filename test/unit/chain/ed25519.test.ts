import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Keypair } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519";
import { signEd25519 } from "../../../src/chain/ed25519.js";

describe("signEd25519", () => {
  it("gives the same deterministic signature as the reference implementation", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 1232 }),
        (seed, msg) => {
          const kp = Keypair.fromSeed(seed);
          const sig = signEd25519(msg, kp);
          expect(Buffer.from(sig)).toEqual(Buffer.from(ed25519.sign(msg, seed)));
          expect(ed25519.verify(sig, msg, kp.publicKey.toBytes())).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("leaves the keypair usable (only its copy of the secret is zeroed)", () => {
    const kp = Keypair.generate();
    const a = signEd25519(new Uint8Array([1, 2, 3]), kp);
    const b = signEd25519(new Uint8Array([1, 2, 3]), kp);
    expect(Buffer.from(a)).toEqual(Buffer.from(b));
    expect(kp.secretKey.some((x) => x !== 0)).toBe(true);
  });
});
