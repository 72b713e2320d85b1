/** The order body's rules: every 400 names its rule (unknown kind, level ≤ 0, two levels, not a mint, past expiry…). */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import { parseOrderRequest } from "../../../../src/domain/orders/request.js";
import { ORDER_RULES as R } from "../../../../src/domain/orders/texts.js";

const mint = Keypair.generate().publicKey.toBase58();
const bounds = { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n };
const now = new Date("2026-11-28T20:00:00Z");
const parse = (body: unknown) => parseOrderRequest(body, bounds, now);

function refusal(body: unknown): string {
  try {
    parse(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).detail;
  }
  throw new Error("accepted");
}

describe("order request rules", () => {
  it.each([
    ["a body that is not an object", [], R.bodyObject],
    ["an unknown kind", { kind: "moon", mint, price: "1" }, R.kindInvalid],
    ["no mint", { kind: "take_profit", price: "1" }, R.mintRequired],
    ["a mint that is not an address", { kind: "take_profit", mint: "nope", price: "1" }, R.mintInvalid],
    ["a price of zero", { kind: "take_profit", mint, price: "0" }, R.levelPositive("price")],
    ["a negative price", { kind: "stop_loss", mint, price: "-1" }, R.levelPositive("price")],
    ["a sol_out of zero", { kind: "take_profit", mint, sol_out: 0 }, R.levelPositive("sol_out")],
    [
      "both percent and price",
      { kind: "take_profit", mint, percent: 50, price: "1" },
      R.levelBoth("the order"),
    ],
    ["no level", { kind: "stop_loss", mint }, R.levelRequired("the order")],
    ["a negative take-profit", { kind: "take_profit", mint, percent: -5 }, R.tpPercentSign("percent")],
    ["a stop-loss of 100%", { kind: "stop_loss", mint, percent: "-100%" }, R.slPercentRange("percent")],
    ["a stop-loss of 0%", { kind: "stop_loss", mint, percent: 0 }, R.slPercentRange("percent")],
    ["a limit with a percent", { kind: "limit", side: "sell", mint, percent: 10 }, R.limitPriceOnly],
    ["a limit without side", { kind: "limit", mint, price: "1" }, R.sideInvalid],
    [
      "a take-profit that buys",
      { kind: "take_profit", side: "buy", mint, price: "1" },
      R.sideSellOnly("take_profit"),
    ],
    ["a limit buy without SOL", { kind: "limit", side: "buy", mint, price: "1" }, R.buyAmount],
    ["a sell of 1.5 units", { kind: "take_profit", mint, price: "1", amount: "1.5" }, R.sellAmount],
    ["a trailing stop of 100%", { kind: "trailing_stop", mint, trail_percent: 100 }, R.trailPercent],
    ["a trailing stop without trail", { kind: "trailing_stop", mint }, R.trailPercent],
    ["trail_percent on a stop-loss", { kind: "stop_loss", mint, price: "1", trail_percent: 5 }, R.trailOnly],
    ["a bracket without its legs", { kind: "bracket", mint, price: "1" }, R.bracketLegs],
    [
      "a bracket leg with two levels",
      { kind: "bracket", mint, take_profit: { price: "2", percent: 5 }, stop_loss: { price: "1" } },
      R.levelBoth("take_profit"),
    ],
    [
      "take_profit on a limit",
      { kind: "limit", side: "sell", mint, price: "1", take_profit: {} },
      R.bracketOnly("take_profit"),
    ],
    [
      "an expiry in the past",
      { kind: "take_profit", mint, price: "1", expires_at: "2026-11-28T19:59:59Z" },
      R.expiresPast,
    ],
    [
      "an expiry that is not a date",
      { kind: "take_profit", mint, price: "1", expires_at: "tomorrow" },
      R.expiresInvalid,
    ],
    ["an unknown field", { kind: "take_profit", mint, price: "1", prcie: "2" }, R.unknownField("prcie")],
    ["a level on an on_migration order", { kind: "on_migration", mint, price: "1" }, R.migrationNoLevel],
    ["max_retries of 11", { kind: "stop_loss", mint, price: "1", max_retries: 11 }, R.maxRetriesInvalid],
  ])("refuses %s", (_what, body, text) => {
    expect(refusal(body)).toBe(text);
  });

  it("a bad entry price, wallet, and a price with 19 decimals are refused", () => {
    expect(refusal({ kind: "take_profit", mint, percent: 5, entry_price: "x" })).toBe(R.entryInvalid);
    expect(refusal({ kind: "take_profit", mint, price: "1", wallet: "w" })).toBe(R.walletInvalid);
    expect(refusal({ kind: "take_profit", mint, price: "0.0000000000000000001" })).toBe(
      R.priceInvalid("price"),
    );
  });

  it("parses a bracket: sells 100% by default, a stop-loss percent is a fall whichever sign it has", () => {
    const r = parse({ kind: "bracket", mint, take_profit: { percent: "+50%" }, stop_loss: { percent: 20 } });
    expect(r.amount).toEqual({ kind: "percent", hundredths: 10_000n });
    expect(r.legs.map((l) => [l.name, l.direction, l.form])).toEqual([
      ["take_profit", "above", { kind: "percent", hundredths: 5_000n }],
      ["stop_loss", "below", { kind: "percent", hundredths: -2_000n }],
    ]);
  });

  it("parses a limit buy (fires at or below its price), fees, slippage and expiry", () => {
    const r = parse({
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.25",
      price: "0.00000003",
      slippage: 5,
      priority_fee: "0.0001",
      expires_at: "2026-11-29T00:00:00Z",
    });
    expect(r.amount).toEqual({ kind: "sol", lamports: 250_000_000n });
    expect(r.legs[0]).toMatchObject({
      name: "limit",
      direction: "below",
      form: { kind: "price", price: 30_000_000_000n },
    });
    expect(r.slippageBps).toBe(500n);
    expect(r.fees.priorityFeeLamports).toBe(100_000n);
    expect(r.expiresAt).toBe("2026-11-29T00:00:00.000Z");
  });
});
