import { describe, it, expect } from "vitest";
import fc from "fast-check";
import bs58 from "bs58";
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { decodeV0Transaction } from "../../localnet/ledger/v0-decode.js";

/** A signed v0 transaction with `n` transfers, optionally through a lookup table. */
function v0Wire(n: number, withTable: boolean): Uint8Array {
  const payer = Keypair.generate();
  const dests = Array.from({ length: n }, () => Keypair.generate().publicKey);
  const table = new AddressLookupTableAccount({
    key: Keypair.generate().publicKey,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses: dests,
    },
  });
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: bs58.encode(new Uint8Array(32).fill(3)),
    instructions: [
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 11 }),
      ...dests.map((d, i) =>
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: d, lamports: i + 1 }),
      ),
    ],
  }).compileToV0Message(withTable ? [table] : []);
  const tx = new VersionedTransaction(msg);
  tx.sign([payer]);
  return tx.serialize();
}

describe("decodeV0Transaction", () => {
  it("decodes exactly what web3.js decodes", () => {
    for (const [n, table] of [
      [0, false],
      [1, false],
      [3, true],
      [5, false],
    ] as const) {
      const wire = v0Wire(n, table);
      const ours = decodeV0Transaction(wire);
      const theirs = VersionedTransaction.deserialize(wire);
      expect(ours).not.toBeNull();
      expect(ours).toStrictEqual(theirs);
      expect(Buffer.from(ours!.serialize()).equals(Buffer.from(wire))).toBe(true);
    }
  });

  it("leaves to web3.js every byte string that is not a whole v0 transaction", () => {
    const wire = v0Wire(2, true);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: wire.length - 1 }), fc.integer({ min: 0, max: 255 }), (i, b) => {
        const bad = new Uint8Array(wire);
        bad[i] = b;
        const ours = (() => {
          try {
            return decodeV0Transaction(bad);
          } catch (e) {
            return e as Error;
          }
        })();
        if (ours === null) return;
        // When ours decodes, web3.js decodes the same bytes to the same transaction.
        expect(ours).toStrictEqual(VersionedTransaction.deserialize(bad));
      }),
      { numRuns: 2000 },
    );
    expect(decodeV0Transaction(wire.subarray(0, wire.length - 1))).toBeNull();
    expect(decodeV0Transaction(new Uint8Array([...wire, 0]))).toBeNull();
    expect(decodeV0Transaction(new Uint8Array(0))).toBeNull();
  });

  it("leaves legacy transactions to web3.js", () => {
    const payer = Keypair.generate();
    const msg = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: bs58.encode(new Uint8Array(32).fill(4)),
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: PublicKey.default, lamports: 1 }),
      ],
    }).compileToLegacyMessage();
    const tx = new VersionedTransaction(msg);
    tx.sign([payer]);
    expect(decodeV0Transaction(tx.serialize())).toBeNull();
  });
});
