import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import bs58 from "bs58";
import {
  assembleTransaction,
  createUniqueOffsets,
  MAX_TRANSACTION_BYTES,
  TransactionTooLargeError,
  UNIQUE_OFFSET_SPAN,
} from "../../../src/chain/tx-assembly.js";
import { lookupTableOf } from "../../helpers/fixtures.js";

const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
const payer = Keypair.generate();
const tipAccounts = Array.from({ length: 8 }, () => Keypair.generate().publicKey);
const programId = Keypair.generate().publicKey;
const work = new TransactionInstruction({
  programId,
  keys: [{ pubkey: payer.publicKey, isSigner: true, isWritable: true }],
  data: Buffer.from([1, 2, 3]),
});

function base() {
  return {
    payer,
    instructions: [work],
    computeUnitLimit: 120_000,
    computeUnitPriceMicroLamports: 100_000n,
    tip: { accounts: tipAccounts, lamports: 200_000n },
    blockhash: BLOCKHASH,
  };
}

function decompile(wire: Uint8Array) {
  const tx = VersionedTransaction.deserialize(wire);
  const msg = TransactionMessage.decompile(tx.message);
  return { tx, msg };
}

describe("assembleTransaction", () => {
  it("orders CU limit, CU price, the operation, then the tip; fee payer is the wallet and it signed", () => {
    const a = assembleTransaction({ ...base(), uniqueOffset: 7 });
    const { tx, msg } = decompile(a.wire);
    expect(msg.payerKey.equals(payer.publicKey)).toBe(true);
    expect(msg.recentBlockhash).toBe(BLOCKHASH);
    const [limit, price, op, tip] = msg.instructions;
    expect(limit?.programId.equals(ComputeBudgetProgram.programId)).toBe(true);
    expect(ComputeBudgetInstruction.decodeSetComputeUnitLimit(limit!).units).toBe(120_007);
    expect(ComputeBudgetInstruction.decodeSetComputeUnitPrice(price!).microLamports).toBe(100_000n);
    expect(op?.programId.equals(programId)).toBe(true);
    expect(tip?.programId.equals(SystemProgram.programId)).toBe(true);
    const transfer = SystemInstruction.decodeTransfer(tip!);
    expect(transfer.fromPubkey.equals(payer.publicKey)).toBe(true);
    expect(tipAccounts.some((t) => t.equals(transfer.toPubkey))).toBe(true);
    expect(transfer.lamports).toBe(200_000n);
    expect(a.signature).toBe(bs58.encode(tx.signatures[0]!));
    expect(a.computeUnitLimit).toBe(120_007);
    expect(a.wire.length).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
    expect(tx.version).toBe(0);
  });

  it("builds legacy messages on request and omits the tip when none is given", () => {
    const a = assembleTransaction({ ...base(), tip: undefined, version: "legacy" });
    const { tx, msg } = decompile(a.wire);
    expect(tx.version).toBe("legacy");
    expect(msg.instructions).toHaveLength(3);
    expect(a.tipAccount).toBeNull();
  });

  it("makes two identical requests in the same slot produce different transactions", () => {
    const next = createUniqueOffsets(() => 0.5);
    const a = assembleTransaction({ ...base(), uniqueOffset: next() });
    const b = assembleTransaction({ ...base(), uniqueOffset: next() });
    expect(a.signature).not.toBe(b.signature);
    expect(Buffer.from(a.wire).equals(Buffer.from(b.wire))).toBe(false);
    // Without an explicit offset the default is random; with the same random source the bytes would repeat,
    // which is why the chain passes offsets from createUniqueOffsets.
    const c = assembleTransaction({ ...base() });
    const d = assembleTransaction({ ...base() });
    expect(c.signature).not.toBe(d.signature);
  });

  it("gives distinct offsets for a whole span of consecutive calls", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.9999999, noNaN: true }), (r) => {
        const next = createUniqueOffsets(() => r);
        const seen = new Set(Array.from({ length: UNIQUE_OFFSET_SPAN }, next));
        return seen.size === UNIQUE_OFFSET_SPAN && [...seen].every((o) => o >= 0 && o < UNIQUE_OFFSET_SPAN);
      }),
      { numRuns: 20 },
    );
  });

  it("keeps the offset effective near the compute-unit ceiling", () => {
    const a = assembleTransaction({ ...base(), computeUnitLimit: 1_400_000, uniqueOffset: 5 });
    const b = assembleTransaction({ ...base(), computeUnitLimit: 1_400_000, uniqueOffset: 6 });
    expect(a.computeUnitLimit).toBe(1_399_995);
    expect(a.signature).not.toBe(b.signature);
  });

  it("signs with extra signers", () => {
    const mint = Keypair.generate();
    const ix = new TransactionInstruction({
      programId,
      keys: [{ pubkey: mint.publicKey, isSigner: true, isWritable: true }],
      data: Buffer.alloc(0),
    });
    const a = assembleTransaction({ ...base(), instructions: [ix], extraSigners: [mint] });
    const { tx } = decompile(a.wire);
    expect(tx.signatures).toHaveLength(2);
    expect(tx.signatures.every((s) => s.some((b) => b !== 0))).toBe(true);
  });

  it("refuses to leave a required signer unsigned", () => {
    const mint = Keypair.generate();
    const ix = new TransactionInstruction({
      programId,
      keys: [{ pubkey: mint.publicKey, isSigner: true, isWritable: true }],
      data: Buffer.alloc(0),
    });
    expect(() => assembleTransaction({ ...base(), instructions: [ix] })).toThrow(
      `transaction needs a signature from ${mint.publicKey.toBase58()}`,
    );
  });

  it("refuses a transaction over 1232 bytes with a clear error", () => {
    const big = new TransactionInstruction({ programId, keys: [], data: Buffer.alloc(1100) });
    expect(() => assembleTransaction({ ...base(), instructions: [big] })).toThrow(TransactionTooLargeError);
    const many = Array.from(
      { length: 40 },
      () =>
        new TransactionInstruction({
          programId,
          keys: [{ pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true }],
          data: Buffer.alloc(1),
        }),
    );
    expect(() => assembleTransaction({ ...base(), instructions: many })).toThrow(/over the 1232-byte limit/);
  });

  it("accepts a transaction right at the limit size class", () => {
    // 1232 - (sizes of the rest) leaves room for a payload of several hundred bytes.
    const ix = new TransactionInstruction({ programId, keys: [], data: Buffer.alloc(800) });
    const a = assembleTransaction({ ...base(), instructions: [ix] });
    expect(a.wire.length).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
    expect(new PublicKey(a.tipAccount!).toBase58()).toBeTruthy();
  });

  it("looks accounts up through tables but keeps tip accounts static", () => {
    const looked = Keypair.generate().publicKey;
    const table = lookupTableOf([looked, ...tipAccounts]);
    const ix = new TransactionInstruction({
      programId,
      keys: [{ pubkey: looked, isSigner: false, isWritable: true }],
      data: Buffer.from([1]),
    });
    const a = assembleTransaction({ ...base(), instructions: [ix], lookupTables: [table] });
    const tx = VersionedTransaction.deserialize(a.wire);
    const statics = tx.message.staticAccountKeys.map((k) => k.toBase58());
    expect(statics).toContain(a.tipAccount!.toBase58());
    expect(statics).not.toContain(looked.toBase58());
    expect(tx.message.addressTableLookups).toEqual([
      { accountKey: table.key, writableIndexes: [0], readonlyIndexes: [] },
    ]);
  });
});
