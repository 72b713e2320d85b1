/** The outside-wallet rules: reading a signed transaction (texts exact), the CLI's local signer, the build set. */
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { readSignedTransaction } from "../../../../src/domain/outside/signed-transaction.js";
import { decodeBuild, encodeBuild, type OutsideBuild } from "../../../../src/domain/outside/builds.js";
import { parseBuildRequest } from "../../../../src/domain/outside/build.js";
import { parseSendRequest } from "../../../../src/domain/outside/send.js";
import { signBuilt } from "../../../../packages/cli/src/outside-commands.js";

const payer = Keypair.generate();

function unsigned(): VersionedTransaction {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: PublicKey.default.toBase58(),
    instructions: [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: PublicKey.unique(), lamports: 1 }),
    ],
  }).compileToV0Message();
  return new VersionedTransaction(message);
}

const b64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");
const detail = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return "no error";
};

describe("readSignedTransaction", () => {
  it("reads a signed v0 transaction: fee payer, signature and message bytes", () => {
    const tx = unsigned();
    tx.sign([payer]);
    const r = readSignedTransaction(b64(tx.serialize()));
    expect(r.feePayer).toBe(payer.publicKey.toBase58());
    expect(Buffer.from(r.message)).toEqual(Buffer.from(tx.message.serialize()));
  });

  it("refuses an unsigned, tampered or malformed transaction with its text", () => {
    const tx = unsigned();
    expect(detail(() => readSignedTransaction(b64(tx.serialize())))).toBe(
      "transaction signature does not verify for its fee payer",
    );
    tx.sign([payer]);
    const wire = tx.serialize();
    wire[wire.length - 1]! ^= 1;
    expect(detail(() => readSignedTransaction(b64(wire)))).toBe(
      "transaction signature does not verify for its fee payer",
    );
    for (const bad of ["", "!!!", b64(new Uint8Array([1, 2, 3])), b64(new Uint8Array(200))])
      expect(
        detail(() => readSignedTransaction(bad)),
        bad,
      ).toBe("transaction is not a well-formed base64 serialized transaction");
  });

  it("the CLI's signer signs a built transaction as its fee payer", () => {
    const built = b64(unsigned().serialize());
    const signedText = signBuilt(built, Array.from(payer.secretKey));
    expect(readSignedTransaction(signedText).feePayer).toBe(payer.publicKey.toBase58());
    // Another keypair's signature does not verify for the built fee payer.
    const other = signBuilt(built, Array.from(Keypair.generate().secretKey));
    expect(detail(() => readSignedTransaction(other))).toBe(
      "transaction signature does not verify for its fee payer",
    );
  });
});

describe("request parsers", () => {
  it("build needs public_key; send needs transaction", () => {
    const mint = PublicKey.unique().toBase58();
    expect(detail(() => parseBuildRequest({ action: "buy", mint, amount: "0.1" }))).toBe(
      "public_key is required: the outside wallet that will sign",
    );
    expect(detail(() => parseBuildRequest({ action: "buy", mint, amount: "0.1", public_key: "x" }))).toBe(
      "public_key must be a base58 public key",
    );
    expect(parseBuildRequest({ action: "buy", mint, amount: "0.1", publicKey: mint }).publicKey).toBe(mint);
    expect(detail(() => parseSendRequest({}))).toBe(
      "transaction is required: the signed transaction as base64",
    );
    expect(detail(() => parseSendRequest({ transaction: 5 }))).toBe(
      "transaction is not a well-formed base64 serialized transaction",
    );
    expect(parseSendRequest({ transaction: "AA==" })).toEqual({
      transaction: "AA==",
      simulate: true,
      confirm: true,
    });
  });
});

describe("outside builds", () => {
  it("are stored as JSON text and read back whole (instructions, flags, bigints)", () => {
    const ix = SystemProgram.transfer({
      fromPubkey: payer.publicKey,
      toPubkey: PublicKey.default,
      lamports: 7,
    });
    const build: OutsideBuild = {
      apiKeyId: 1,
      publicKey: payer.publicKey.toBase58(),
      mint: "m",
      action: "buy",
      request: { amount: "0.1" },
      details: { venue: "bonding_curve" },
      spendable: { instructions: [ix], signatureCount: 1, tipAccounts: [PublicKey.default] },
      lastValidBlockHeight: 9,
      computeUnitLimit: 100,
      computeUnitPriceMicroLamports: 18_446_744_073_709_551_615n,
    };
    const back = decodeBuild(encodeBuild(build));
    expect(back).toEqual(build);
    expect(back.spendable.instructions[0]!.keys).toEqual(ix.keys);
  });
});
