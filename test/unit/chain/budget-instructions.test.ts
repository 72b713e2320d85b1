/** The directly encoded compute-budget and transfer instructions equal web3.js's (src/chain/budget-instructions.ts). */
import { ComputeBudgetProgram, Keypair, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  setComputeUnitLimit,
  setComputeUnitPrice,
  systemTransfer,
} from "../../../src/chain/budget-instructions.js";

const shape = (ix: TransactionInstruction) => ({
  programId: ix.programId.toBase58(),
  keys: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
  data: Buffer.from(ix.data).toString("hex"),
});

describe("budget instructions", () => {
  it("compute-unit limits encode as web3.js encodes them", () => {
    for (const units of [0, 1, 200_000, 200_123, 1_400_000, 2 ** 32 - 1])
      expect(shape(setComputeUnitLimit(units))).toEqual(
        shape(ComputeBudgetProgram.setComputeUnitLimit({ units })),
      );
  });

  it("compute-unit prices encode as web3.js encodes them", () => {
    for (const microLamports of [0n, 1n, 12_345n, 2n ** 53n + 1n, 2n ** 64n - 1n])
      expect(shape(setComputeUnitPrice(microLamports))).toEqual(
        shape(ComputeBudgetProgram.setComputeUnitPrice({ microLamports })),
      );
  });

  it("transfers encode as web3.js encodes them", () => {
    const from = Keypair.generate().publicKey;
    const to = Keypair.generate().publicKey;
    for (const lamports of [1n, 1_000n, 2n ** 53n + 7n, 2n ** 64n - 1n])
      expect(shape(systemTransfer(from, to, lamports))).toEqual(
        shape(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })),
      );
  });

  it("refuses a negative or oversized amount (RangeError)", () => {
    expect(() => setComputeUnitPrice(-1n)).toThrow(RangeError);
    expect(() => setComputeUnitPrice(2n ** 64n)).toThrow(RangeError);
    expect(() => setComputeUnitLimit(2 ** 32)).toThrow(RangeError);
  });
});
