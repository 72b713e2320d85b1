import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { newMintKey } from "../../../../src/domain/create/mint-key.js";

describe("newMintKey", () => {
  it("gives a valid keypair whose secret is zeroed by wipe", () => {
    const { keypair, wipe } = newMintKey();
    // A consistent keypair: rebuilding it with validation accepts it.
    expect(Keypair.fromSecretKey(keypair.secretKey).publicKey.equals(keypair.publicKey)).toBe(true);
    expect(keypair.secretKey.some((b) => b !== 0)).toBe(true);
    wipe();
    expect(keypair.secretKey.every((b) => b === 0)).toBe(true);
  });

  it("never repeats a key", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newMintKey().keypair.publicKey.toBase58()));
    expect(keys.size).toBe(50);
  });
});
