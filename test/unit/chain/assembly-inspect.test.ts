/** Issue 29: `assembleTransaction`'s `inspect` sees the whole compiled transaction before any signature. */
import { describe, expect, it, vi } from "vitest";
import { Keypair, TransactionInstruction } from "@solana/web3.js";
import { assembleTransaction, type TransactionToSign } from "../../../src/chain/tx-assembly.js";
import * as ed25519 from "../../../src/chain/ed25519.js";

const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
const payer = Keypair.generate();
const extra = Keypair.generate();
const tipAccounts = [Keypair.generate().publicKey];
const work = new TransactionInstruction({
  programId: Keypair.generate().publicKey,
  keys: [
    { pubkey: payer.publicKey, isSigner: true, isWritable: true },
    { pubkey: extra.publicKey, isSigner: true, isWritable: true },
  ],
  data: Buffer.from([1, 2, 3]),
});
const input = {
  payer,
  extraSigners: [extra],
  instructions: [work],
  computeUnitLimit: 120_000,
  computeUnitPriceMicroLamports: 100_000n,
  tip: { accounts: tipAccounts, lamports: 200_000n },
  blockhash: BLOCKHASH,
};

describe("assembleTransaction inspect", () => {
  it("shows every instruction (budget, operation, tip), the signature count and the tip accounts", () => {
    let seen: TransactionToSign | undefined;
    assembleTransaction({ ...input, inspect: (tx) => void (seen = tx) });
    expect(seen?.instructions).toHaveLength(4);
    expect(seen?.instructions[2]).toBe(work);
    expect(seen?.signatureCount).toBe(2);
    expect(seen?.tipAccounts).toEqual(tipAccounts);
  });

  it("a throw refuses the transaction before anything is signed", () => {
    const sign = vi.spyOn(ed25519, "signEd25519");
    sign.mockClear();
    expect(() =>
      assembleTransaction({
        ...input,
        inspect: () => {
          throw new Error("refused");
        },
      }),
    ).toThrow("refused");
    expect(sign).not.toHaveBeenCalled();
    // The spy does see signatures: without the throw, both signers sign.
    assembleTransaction({ ...input, inspect: () => undefined });
    expect(sign).toHaveBeenCalledTimes(2);
    sign.mockRestore();
  });
});
