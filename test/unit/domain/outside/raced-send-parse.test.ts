/** A raced outside send's body (transactions) and the race tag a variant's build keeps through the store. */
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { decodeBuild, encodeBuild, type OutsideBuild } from "../../../../src/domain/outside/builds.js";
import { OUTSIDE_NONCE } from "../../../../src/domain/outside/nonce-texts.js";
import { parseSendRequest } from "../../../../src/domain/outside/send.js";

const detailOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { detail?: string }).detail;
  }
  return undefined;
};

describe("parseSendRequest with transactions", () => {
  it("takes 1 to 32 non-empty texts; the first is the transaction; switches default true", () => {
    expect(parseSendRequest({ transactions: ["AAA=", "BBB="], confirm: false })).toEqual({
      transaction: "AAA=",
      transactions: ["AAA=", "BBB="],
      simulate: true,
      confirm: false,
    });
    expect(parseSendRequest({ signed_transactions: ["AAA="] }).transactions).toEqual(["AAA="]);
  });

  it("refuses an empty, oversized or non-text list, and transaction beside transactions", () => {
    for (const transactions of [[], "AAA=", [""], [1], Array.from({ length: 33 }, () => "AAA=")])
      expect(detailOf(() => parseSendRequest({ transactions }))).toBe(OUTSIDE_NONCE.transactionsType);
    expect(detailOf(() => parseSendRequest({ transactions: ["AAA="], transaction: "AAA=" }))).toBe(
      OUTSIDE_NONCE.transactionAndTransactions,
    );
  });
});

describe("a raced variant's build", () => {
  it("keeps its race tag through the stored text", () => {
    const build: OutsideBuild = {
      apiKeyId: 1,
      publicKey: "p",
      mint: "m",
      action: "buy",
      request: {},
      details: {},
      spendable: {
        instructions: [
          new TransactionInstruction({ programId: PublicKey.default, keys: [], data: Buffer.alloc(0) }),
        ],
        signatureCount: 1,
      },
      lastValidBlockHeight: 10,
      computeUnitLimit: 100,
      computeUnitPriceMicroLamports: 5n,
      race: { group: "g", route: "route-a", nonceAccount: "n", nonceValue: "v", tipLamports: "200000" },
    };
    expect(decodeBuild(encodeBuild(build)).race).toEqual(build.race);
  });
});
