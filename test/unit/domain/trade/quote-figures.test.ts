import { describe, expect, it } from "vitest";
import { SPEC, TRADE_RULES } from "../../../../src/core/errors.js";
import { quoteTrade, type TradeAmount, type VenueState } from "../../../../src/domain/trade/quote.js";
import {
  formatPercent,
  priceImpact,
  quoteFigures,
  type QuoteFigures,
} from "../../../../src/domain/trade/quote-figures.js";
import { parseQuoteQuery } from "../../../../src/domain/trade/quote-service.js";
import { detailOf } from "../../../helpers/expect.js";
import { CURVE, POOL } from "./venue-fixtures.js";

const ONE_SOL: TradeAmount = { kind: "sol", lamports: 1_000_000_000n };
const TOKENS: TradeAmount = { kind: "tokens", units: 1_000_000_000_000n };

function figures(action: "buy" | "sell", amount: TradeAmount, venue: VenueState): QuoteFigures {
  return quoteFigures(quoteTrade({ action, amount, venue, slippageBps: 200n }), venue);
}

describe("quote figures: what the trade moves, each fee, price impact", () => {
  it("bonding-curve SOL buy: net_sol to the curve, fees on net_sol, the whole SOL amount spent", () => {
    expect(figures("buy", ONE_SOL, CURVE)).toEqual({
      tokens: 34_199_203_120_618n,
      sol: 1_000_000_000n,
      venueSol: 987_654_320n,
      fees: { protocol: 9_382_717n, creator: 2_962_963n, lp: null },
      priceImpactPercent: "3.2922",
    });
  });

  it("bonding-curve token buy: the curve's cost of exactly the tokens, plus its fees", () => {
    expect(figures("buy", TOKENS, CURVE)).toEqual({
      tokens: 1_000_000_000_000n,
      sol: 28_334_890n,
      venueSol: 27_985_075n,
      fees: { protocol: 265_859n, creator: 83_956n, lp: null },
      priceImpactPercent: "0.0933",
    });
  });

  it("bonding-curve sell: the curve's gross output less its fees", () => {
    expect(figures("sell", TOKENS, CURVE)).toEqual({
      tokens: 1_000_000_000_000n,
      sol: 27_583_797n,
      venueSol: 27_932_960n,
      fees: { protocol: 265_364n, creator: 83_799n, lp: null },
      priceImpactPercent: "0.0931",
    });
  });

  it("pool SOL buy: buy(base) costs buyBaseInput's total, one lamport under the SOL amount here", () => {
    expect(figures("buy", ONE_SOL, POOL)).toEqual({
      tokens: 9_685_230_005_099n,
      sol: 999_999_999n,
      venueSol: 987_654_319n,
      fees: { protocol: 9_185_186n, creator: 2_962_963n, lp: 197_531n },
      priceImpactPercent: "1.9753",
    });
  });

  it("pool token buy and sell: lp, protocol and creator fee each on the pool's quote amount", () => {
    expect(figures("buy", TOKENS, POOL)).toEqual({
      tokens: 1_000_000_000_000n,
      sol: 101_452_908n,
      venueSol: 100_200_401n,
      fees: { protocol: 931_864n, creator: 300_602n, lp: 20_041n },
      priceImpactPercent: "0.2004",
    });
    expect(figures("sell", TOKENS, POOL)).toEqual({
      tokens: 1_000_000_000_000n,
      sol: 98_552_892n,
      venueSol: 99_800_399n,
      fees: { protocol: 928_144n, creator: 299_402n, lp: 19_961n },
      priceImpactPercent: "0.1996",
    });
  });

  it("the fees add up: sol = venue lamports ± every fee, on both venues and sides", () => {
    for (const venue of [CURVE, POOL]) {
      for (const [action, amount] of [
        ["buy", ONE_SOL],
        ["buy", TOKENS],
        ["sell", TOKENS],
      ] as const) {
        const f = figures(action, amount, venue);
        const fees = f.fees.protocol + f.fees.creator + (f.fees.lp ?? 0n);
        expect(f.sol).toBe(action === "buy" ? f.venueSol + fees : f.venueSol - fees);
      }
    }
  });

  it("the figures agree with the trade's own quote (its threshold before slippage)", () => {
    // Curve token buy: the trade's quoted cost is the SOL the quote reports.
    const q = quoteTrade({ action: "buy", amount: TOKENS, venue: CURVE, slippageBps: 0n });
    expect(quoteFigures(q, CURVE).sol).toBe(q.quoted);
    const s = quoteTrade({ action: "sell", amount: TOKENS, venue: POOL, slippageBps: 0n });
    expect(quoteFigures(s, POOL).sol).toBe(s.quoted);
  });
});

describe("price impact and its text", () => {
  it("buys above spot and sells below it are positive; the other way round negative", () => {
    const spot = { tokens: 1_000n, quote: 100n }; // 0.1 lamport per unit
    expect(priceImpact(true, 100n, 11n, spot)).toEqual({ num: 1_000n, den: 10_000n });
    expect(formatPercent(priceImpact(true, 100n, 11n, spot))).toBe("10.0000");
    expect(formatPercent(priceImpact(false, 100n, 9n, spot))).toBe("10.0000");
    expect(formatPercent(priceImpact(true, 100n, 9n, spot))).toBe("-10.0000");
    expect(formatPercent(priceImpact(true, 0n, 9n, spot))).toBe("0.0000");
  });

  it("formats 4 decimals, rounding half away from zero", () => {
    expect(formatPercent({ num: 1n, den: 3n })).toBe("33.3333");
    expect(formatPercent({ num: 2n, den: 3n })).toBe("66.6667");
    expect(formatPercent({ num: 1n, den: 2_000_000n })).toBe("0.0001"); // 0.00005 % rounds up
    expect(formatPercent({ num: 1n, den: 2_000_001n })).toBe("0.0000");
    expect(formatPercent({ num: -1n, den: 3n })).toBe("-33.3333");
    expect(formatPercent({ num: -1n, den: 3_000_000n })).toBe("0.0000");
    expect(formatPercent({ num: 5n, den: 1n })).toBe("500.0000");
  });
});

describe("the quote's query", () => {
  const mint = "So11111111111111111111111111111111111111112";

  it("takes the trade's fields, with their defaults", () => {
    const buy = parseQuoteQuery({ mint, side: "buy", amount: "0.5" });
    expect(buy).toMatchObject({
      action: "buy",
      mint,
      amount: { kind: "sol", lamports: 500_000_000n },
      denominatedInSol: true,
      slippageBps: 200n,
    });
    const tokens = parseQuoteQuery({ mint, side: "buy", amount: "1000", denominated_in_sol: "false" });
    expect(tokens.amount).toEqual({ kind: "tokens", units: 1000n });
    const sell = parseQuoteQuery({ mint, action: "sell", amount: "42", slippage: "7.5" });
    expect(sell).toMatchObject({ action: "sell", amount: { kind: "tokens", units: 42n }, slippageBps: 750n });
  });

  it("refuses bad input with the trade's texts, and what only a wallet could answer", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ mint, amount: "1" }, TRADE_RULES.quoteSide],
      [{ mint, side: "hold", amount: "1" }, TRADE_RULES.quoteSide],
      [{ side: "buy", amount: "1" }, TRADE_RULES.mintRequired],
      [{ mint: "nope", side: "buy", amount: "1" }, TRADE_RULES.mintInvalid],
      [{ mint, side: "buy" }, TRADE_RULES.amountRequired],
      [{ mint, side: "buy", amount: "0.0000000001" }, SPEC.trade.solDecimals],
      [{ mint, side: "sell", amount: "1.5" }, TRADE_RULES.sellTokenUnits],
      [{ mint, side: "sell", amount: "50%" }, TRADE_RULES.quotePercent],
      [{ mint, side: "sell", amount: "1", denominated_in_sol: "true" }, SPEC.trade.sellInSol],
      [{ mint, side: "buy", amount: "1", slippage: "51" }, TRADE_RULES.slippageRange],
      [{ mint, side: "buy", amount: "1", slippage: "1", slippage_bps: "100" }, SPEC.trade.slippageBoth],
      [{ mint, side: "buy", amount: "1", denominated_in_sol: "maybe" }, TRADE_RULES.denominatedInSol],
    ];
    for (const [query, detail] of cases)
      expect(
        detailOf(() => parseQuoteQuery(query)),
        JSON.stringify(query),
      ).toBe(detail);
  });
});
