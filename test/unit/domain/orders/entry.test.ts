/** The entry of percent levels: entry_price, else the position's average entry (fees included); 400 without one. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import { parseOrderRequest } from "../../../../src/domain/orders/request.js";
import { entryOf, positionEntryPrice, resolveSpec } from "../../../../src/domain/orders/spec.js";
import { ORDER_RULES as R } from "../../../../src/domain/orders/texts.js";

const mint = Keypair.generate().publicKey.toBase58();
const bounds = { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n };
const parse = (body: unknown) => parseOrderRequest(body, bounds, new Date("2026-11-28T20:00:00Z"));
const E18 = 10n ** 18n;

// 2 whole tokens (6 decimals) bought for 1 SOL, fees included: 0.5 SOL per whole token.
const bought = { tokensHeld: 2_000_000n, unknownBasisTokens: 0n, costBasis: 1_000_000_000n };

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).detail;
  }
  throw new Error("accepted");
}

describe("the entry of percent levels", () => {
  it("is the average cost of the known-basis tokens, per whole token", () => {
    expect(positionEntryPrice(bought, 6)).toBe(E18 / 2n);
    // Tokens of unknown cost do not dilute the average.
    expect(positionEntryPrice({ ...bought, tokensHeld: 3_000_000n, unknownBasisTokens: 1_000_000n }, 6)).toBe(
      E18 / 2n,
    );
    expect(positionEntryPrice({ ...bought, unknownBasisTokens: 2_000_000n }, 6)).toBeNull();
    expect(positionEntryPrice({ ...bought, costBasis: 0n }, 6)).toBeNull();
  });

  it("turns +50% / -20% into levels from the position's entry (source position)", () => {
    const req = parse({
      kind: "bracket",
      mint,
      take_profit: { percent: "+50%" },
      stop_loss: { percent: -20 },
    });
    const entry = entryOf(req, bought, 6);
    expect(entry).toEqual({ price: E18 / 2n, source: "position" });
    const spec = resolveSpec(req, 2_000_000n, entry);
    expect(spec.triggers.map((t) => t.level)).toEqual([
      { kind: "price", price: ((E18 / 2n) * 3n) / 2n },
      { kind: "price", price: ((E18 / 2n) * 8n) / 10n },
    ]);
    expect(spec).toMatchObject({ entryPrice: E18 / 2n, entrySource: "position" });
  });

  it("entry_price overrides the position, and is kept even without a position", () => {
    const req = parse({ kind: "take_profit", mint, percent: 100, entry_price: "2" });
    expect(entryOf(req, bought, 6)).toEqual({ price: 2n * E18, source: "request" });
    expect(entryOf(req, undefined, 6)).toEqual({ price: 2n * E18, source: "request" });
    expect(resolveSpec(req, 1n, entryOf(req, undefined, 6)).triggers[0]!.level).toEqual({
      kind: "price",
      price: 4n * E18,
    });
  });

  it("refuses percent levels without a position or with an unknown basis; price levels need neither", () => {
    const req = parse({ kind: "stop_loss", mint, percent: -20 });
    expect(refusal(() => entryOf(req, undefined, 6))).toBe(R.noPosition);
    expect(refusal(() => entryOf(req, { ...bought, tokensHeld: 0n, costBasis: 0n }, 6))).toBe(R.noPosition);
    expect(refusal(() => entryOf(req, { ...bought, unknownBasisTokens: 2_000_000n }, 6))).toBe(
      R.unknownBasis,
    );
    const priced = parse({ kind: "stop_loss", mint, price: "0.1" });
    expect(entryOf(priced, undefined, 6)).toBeNull();
    expect(resolveSpec(priced, 1n, null)).toMatchObject({ entryPrice: null, entrySource: null });
  });
});
