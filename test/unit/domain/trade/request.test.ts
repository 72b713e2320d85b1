import { describe, expect, it } from "vitest";
import { ApiError, SPEC, TRADE_RULES } from "../../../../src/core/errors.js";
import { parseBoolean } from "../../../../src/core/request-fields.js";
import { parseTradeRequest } from "../../../../src/domain/trade/request.js";
import { badRequestDetailOf } from "../../../helpers/expect.js";

const MINT = "7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump";
const POOL = "GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J";
const WALLET = "62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV";

const detailOf = (body: Record<string, unknown>): string => badRequestDetailOf(() => parseTradeRequest(body));

describe("parseTradeRequest", () => {
  it("applies every default to a minimal SOL buy", () => {
    expect(parseTradeRequest({ action: "buy", mint: MINT, amount: 0.5 })).toEqual({
      action: "buy",
      mint: MINT,
      pool: null,
      amountText: "0.5",
      amount: { kind: "sol", lamports: 500_000_000n },
      denominatedInSol: true,
      slippageBps: 200n,
      simulate: true,
      confirm: true,
      measureTiming: false,
      wallet: null,
    });
  });

  it("reads the aliases side, token_mint and denominatedInSol", () => {
    const intent = parseTradeRequest({
      side: "buy",
      token_mint: MINT,
      amount: "1000",
      denominatedInSol: "false",
    });
    expect(intent.action).toBe("buy");
    expect(intent.mint).toBe(MINT);
    expect(intent.denominatedInSol).toBe(false);
    expect(intent.amount).toEqual({ kind: "tokens", units: 1_000n });
  });

  it("accepts an alias beside its canonical name only when they agree (issue 23: ambiguous bodies)", () => {
    expect(parseTradeRequest({ action: "sell", side: "sell", mint: MINT, amount: 5 }).action).toBe("sell");
    expect(() => parseTradeRequest({ action: "sell", side: "buy", mint: MINT, amount: 5 })).toThrow(
      "side and action name the same field and disagree; send one of them",
    );
  });

  it("defaults sells to token units and reads percentages", () => {
    expect(parseTradeRequest({ action: "sell", mint: MINT, amount: 42 }).amount).toEqual({
      kind: "tokens",
      units: 42n,
    });
    const all = parseTradeRequest({ action: "sell", mint: MINT, amount: "100%", denominated_in_sol: false });
    expect(all.amount).toEqual({ kind: "percent", hundredths: 10_000n });
    expect(all.amountText).toBe("100%");
    expect(all.denominatedInSol).toBe(false);
  });

  it("keeps the explicit fields", () => {
    const intent = parseTradeRequest({
      action: "buy",
      mint: MINT,
      pool: POOL,
      amount: "1e-7",
      slippage_bps: 500,
      simulate: false,
      confirm: "false",
      measure_timing: true,
      wallet: WALLET,
    });
    expect(intent).toMatchObject({
      pool: POOL,
      wallet: WALLET,
      amountText: "1e-7",
      amount: { kind: "sol", lamports: 100n },
      slippageBps: 500n,
      simulate: false,
      confirm: false,
      measureTiming: true,
    });
  });

  it("answers the spec's exact texts", () => {
    expect(detailOf({ action: "hold", mint: MINT, amount: 1 })).toBe(SPEC.trade.badAction);
    expect(detailOf({ mint: MINT, amount: 1 })).toBe(SPEC.trade.badAction);
    expect(detailOf({ action: "BUY", mint: MINT, amount: 1 })).toBe(SPEC.trade.badAction);
    expect(detailOf({ action: "buy", mint: MINT, amount: true })).toBe(SPEC.trade.amountType);
    expect(detailOf({ action: "buy", mint: MINT, amount: null })).toBe(SPEC.trade.amountType);
    expect(detailOf({ action: "buy", mint: MINT, amount: [1] })).toBe(SPEC.trade.amountType);
    expect(detailOf({ action: "buy", mint: MINT, amount: "0.0000000001" })).toBe(SPEC.trade.solDecimals);
    expect(detailOf({ action: "sell", mint: MINT, amount: 1, denominated_in_sol: true })).toBe(
      SPEC.trade.sellInSol,
    );
    expect(detailOf({ action: "sell", mint: MINT, amount: "50%", denominatedInSol: "true" })).toBe(
      SPEC.trade.sellInSol,
    );
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, slippage: 1, slippage_bps: 100 })).toBe(
      SPEC.trade.slippageBoth,
    );
  });

  it("answers clear texts for the unlisted violations", () => {
    expect(detailOf({ action: "buy", amount: 1 })).toBe(TRADE_RULES.mintRequired);
    expect(detailOf({ action: "buy", mint: "not-a-key", amount: 1 })).toBe(TRADE_RULES.mintInvalid);
    expect(detailOf({ action: "buy", mint: MINT, pool: "x", amount: 1 })).toBe(TRADE_RULES.poolInvalid);
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, wallet: 7 })).toBe(TRADE_RULES.walletInvalid);
    expect(detailOf({ action: "buy", mint: MINT })).toBe(TRADE_RULES.amountRequired);
    expect(detailOf({ action: "buy", mint: MINT, amount: "-1" })).toBe(TRADE_RULES.amountPositive);
    expect(detailOf({ action: "buy", mint: MINT, amount: "abc" })).toBe(TRADE_RULES.amountInvalid);
    expect(detailOf({ action: "buy", mint: MINT, amount: "10%" })).toBe(TRADE_RULES.percentOnBuy);
    expect(detailOf({ action: "buy", mint: MINT, amount: 1.5, denominated_in_sol: false })).toBe(
      TRADE_RULES.tokenUnits,
    );
    expect(detailOf({ action: "sell", mint: MINT, amount: "0%" })).toBe(TRADE_RULES.percentRange);
    expect(detailOf({ action: "sell", mint: MINT, amount: "100.001%" })).toBe(TRADE_RULES.percentDecimals);
    // Issue 30: a sell's text names its unit and amount_tokens.
    expect(detailOf({ action: "sell", mint: MINT, amount: 0 })).toBe(TRADE_RULES.sellTokenUnits);
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, denominated_in_sol: "yes" })).toBe(
      TRADE_RULES.denominatedInSol,
    );
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, slippage: 51 })).toBe(TRADE_RULES.slippageRange);
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, slippage_bps: 5001 })).toBe(
      TRADE_RULES.slippageBps,
    );
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, simulate: "no" })).toBe(
      TRADE_RULES.simulateBoolean,
    );
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, confirm: 1 })).toBe(TRADE_RULES.confirmBoolean);
    expect(detailOf({ action: "buy", mint: MINT, amount: 1, measure_timing: "x" })).toBe(
      TRADE_RULES.measureTimingBoolean,
    );
  });
});

describe("parseBoolean", () => {
  it("accepts booleans and boolean strings only", () => {
    expect(parseBoolean(true, "e")).toBe(true);
    expect(parseBoolean(" TRUE ", "e")).toBe(true);
    expect(parseBoolean("False", "e")).toBe(false);
    for (const v of [0, 1, "1", "", null, "yes"])
      expect(() => parseBoolean(v, "e")).toThrow(new ApiError(400, "e"));
  });
});
