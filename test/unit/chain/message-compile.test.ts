import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Keypair, PublicKey, TransactionInstruction, TransactionMessage } from "@solana/web3.js";
import { compileMessage, MessageCompileError } from "../../../src/chain/message-compile.js";
import { lookupTableOf } from "../../helpers/fixtures.js";

const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
const pool = Array.from({ length: 12 }, () => Keypair.generate().publicKey);
const payer = pool[0]!;

const meta = fc.record({
  key: fc.integer({ min: 0, max: pool.length - 1 }),
  isSigner: fc.boolean(),
  isWritable: fc.boolean(),
  // Another PublicKey instance of the same address: keys are matched by their bytes, not by identity.
  copy: fc.boolean(),
});
const instruction = fc.record({
  program: fc.integer({ min: 0, max: pool.length - 1 }),
  keys: fc.array(meta, { maxLength: 6 }),
  data: fc.uint8Array({ maxLength: 200 }),
});

function build(spec: {
  program: number;
  keys: { key: number; isSigner: boolean; isWritable: boolean; copy: boolean }[];
  data: Uint8Array;
}) {
  return new TransactionInstruction({
    programId: pool[spec.program]!,
    keys: spec.keys.map((k) => ({
      pubkey: k.copy ? new PublicKey(pool[k.key]!.toBytes()) : pool[k.key]!,
      isSigner: k.isSigner,
      isWritable: k.isWritable,
    })),
    data: Buffer.from(spec.data),
  });
}

describe("compileMessage", () => {
  it("writes the same bytes as web3.js for legacy and v0 messages, with and without lookup tables", () => {
    fc.assert(
      fc.property(
        fc.array(instruction, { minLength: 1, maxLength: 6 }),
        fc.array(fc.subarray(pool.map((_, i) => i)), { maxLength: 2 }),
        (specs, tableSpecs) => {
          const instructions = specs.map(build);
          const message = new TransactionMessage({
            payerKey: payer,
            recentBlockhash: BLOCKHASH,
            instructions,
          });
          const legacy = compileMessage({ payer, instructions, blockhash: BLOCKHASH, version: "legacy" });
          expect(Buffer.from(legacy.bytes)).toEqual(
            Buffer.from(message.compileToLegacyMessage().serialize()),
          );
          const tables = tableSpecs.map((idx) => lookupTableOf(idx.map((i) => pool[i]!)));
          const v0 = compileMessage({
            payer,
            instructions,
            blockhash: BLOCKHASH,
            version: "v0",
            lookupTables: tables,
          });
          const reference = message.compileToV0Message(tables);
          expect(Buffer.from(v0.bytes)).toEqual(Buffer.from(reference.serialize()));
          const signers = reference.staticAccountKeys.slice(0, reference.header.numRequiredSignatures);
          expect(v0.signers.map((k) => k.toBase58())).toEqual(signers.map((k) => k.toBase58()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps the accounts it is told to keep static out of the lookups", () => {
    const [looked, tip] = [pool[5]!, pool[6]!];
    const ix = new TransactionInstruction({
      programId: pool[1]!,
      keys: [
        { pubkey: looked, isSigner: false, isWritable: true },
        { pubkey: tip, isSigner: false, isWritable: true },
      ],
      data: Buffer.alloc(0),
    });
    const t = lookupTableOf([tip, looked]);
    const { bytes } = compileMessage({
      payer,
      instructions: [ix],
      blockhash: BLOCKHASH,
      version: "v0",
      lookupTables: [t],
      keepStatic: [tip],
    });
    const masked = lookupTableOf([Keypair.generate().publicKey, looked]);
    const reference = new TransactionMessage({
      payerKey: payer,
      recentBlockhash: BLOCKHASH,
      instructions: [ix],
    })
      .compileToV0Message([masked])
      .serialize();
    // Same bytes as web3.js given a table whose tip entry is replaced, apart from the table's own address.
    const replaceTableKey = (b: Uint8Array, from: PublicKey, to: PublicKey) =>
      Buffer.from(b).toString("hex").replace(from.toBuffer().toString("hex"), to.toBuffer().toString("hex"));
    expect(replaceTableKey(bytes, t.key, masked.key)).toBe(Buffer.from(reference).toString("hex"));
  });

  it("refuses more than 256 accounts", () => {
    const many = Array.from({ length: 260 }, () => Keypair.generate().publicKey);
    const ixs = [0, 1].map(
      (h) =>
        new TransactionInstruction({
          programId: pool[1]!,
          keys: many
            .slice(h * 130, h * 130 + 130)
            .map((pubkey) => ({ pubkey, isSigner: false, isWritable: false })),
          data: Buffer.alloc(0),
        }),
    );
    expect(() => compileMessage({ payer, instructions: ixs, blockhash: BLOCKHASH, version: "v0" })).toThrow(
      MessageCompileError,
    );
  });
});
