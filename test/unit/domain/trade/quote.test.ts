import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError, SPEC, TRADE_RULES } from "../../../../src/core/errors.js";
import { swapBuyBaseInput } from "../../../../src/launch/swap-quote.js";
import { quoteTrade, resolveSellUnits, type VenueState } from "../../../../src/domain/trade/quote.js";
import { detailOf } from "../../../helpers/expect.js";
import { CURVE, POOL } from "./venue-fixtures.js";

const SLIPPAGE = 200n;
const ONE_SOL = { kind: "sol", lamports: 1_000_000_000n } as const;
const TOKENS = { kind: "tokens", units: 1_000_000_000_000n } as const;

describe("the six rows of the expected_output table", () => {
  it("bonding-curve SOL buy: buy_exact_sol_in, expected = minimum tokens out", () => {
    const q = quoteTrade({ action: "buy", amount: ONE_SOL, venue: CURVE, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "bonding_curve",
      args: {
        instruction: "buy_exact_sol_in",
        spendableSolIn: 1_000_000_000n,
        minTokensOut: 33_515_219_058_206n,
      },
      expectedOutput: 33_515_219_058_206n,
      amountUnits: 1_000_000_000n,
      quoted: 34_199_203_120_618n,
    });
  });

  it("bonding-curve exact-token buy: buy, expected = maximum lamports in", () => {
    const q = quoteTrade({ action: "buy", amount: TOKENS, venue: CURVE, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "bonding_curve",
      args: { instruction: "buy", amount: 1_000_000_000_000n, maxQuoteIn: 28_901_587n },
      expectedOutput: 28_901_587n,
      amountUnits: 1_000_000_000_000n,
      quoted: 28_334_890n,
    });
  });

  it("bonding-curve sell: sell, expected = minimum lamports out", () => {
    const q = quoteTrade({ action: "sell", amount: TOKENS, venue: CURVE, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "bonding_curve",
      args: { instruction: "sell", amount: 1_000_000_000_000n, minQuoteOut: 27_032_122n },
      expectedOutput: 27_032_122n,
      amountUnits: 1_000_000_000_000n,
      quoted: 27_583_797n,
    });
  });

  it("swap SOL buy: buy(base quoted from the SOL amount, lamports × 1.02), expected = that maximum", () => {
    const q = quoteTrade({ action: "buy", amount: ONE_SOL, venue: POOL, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "launchswap",
      args: { instruction: "buy", amount: 9_685_230_005_099n, maxQuoteIn: 1_020_000_000n },
      expectedOutput: 1_020_000_000n,
      amountUnits: 1_000_000_000n,
      quoted: 9_685_230_005_099n,
    });
  });

  it("swap exact-token buy: buy(base, max quote), expected = maximum lamports", () => {
    const q = quoteTrade({ action: "buy", amount: TOKENS, venue: POOL, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "launchswap",
      args: { instruction: "buy", amount: 1_000_000_000_000n, maxQuoteIn: 103_481_966n },
      expectedOutput: 103_481_966n,
      amountUnits: 1_000_000_000_000n,
      quoted: 101_452_908n,
    });
  });

  it("swap sell: sell(base, min quote), expected = minimum lamports out", () => {
    const q = quoteTrade({ action: "sell", amount: TOKENS, venue: POOL, slippageBps: SLIPPAGE });
    expect(q).toEqual({
      venue: "launchswap",
      args: { instruction: "sell", amount: 1_000_000_000_000n, minQuoteOut: 96_581_835n },
      expectedOutput: 96_581_835n,
      amountUnits: 1_000_000_000_000n,
      quoted: 98_552_892n,
    });
  });

  it("zero slippage writes the quote itself as the threshold", () => {
    const q = quoteTrade({ action: "sell", amount: TOKENS, venue: POOL, slippageBps: 0n });
    expect(q.expectedOutput).toBe(98_552_892n);
  });
});

describe("percentage sells", () => {
  it("resolve against the balance read at execution time (floored)", () => {
    const q = quoteTrade({
      action: "sell",
      amount: { kind: "percent", hundredths: 5_000n },
      venue: CURVE,
      slippageBps: SLIPPAGE,
      tokenBalance: 2_000_000_000_001n,
    });
    expect(q.amountUnits).toBe(1_000_000_000_000n);
    expect(q.expectedOutput).toBe(27_032_122n);
    expect(resolveSellUnits({ kind: "percent", hundredths: 10_000n }, 7n)).toBe(7n);
  });

  it("refuse an empty balance and a share that rounds to nothing", () => {
    const amount = { kind: "percent", hundredths: 1n } as const;
    expect(detailOf(() => resolveSellUnits(amount, 0n))).toBe(TRADE_RULES.noTokenBalance);
    expect(detailOf(() => resolveSellUnits(amount, undefined))).toBe(TRADE_RULES.noTokenBalance);
    expect(detailOf(() => resolveSellUnits(amount, 9_999n))).toBe(TRADE_RULES.percentZeroUnits);
  });
});

describe("refusals", () => {
  it("SOL-denominated sells and percentage buys", () => {
    expect(
      detailOf(() => quoteTrade({ action: "sell", amount: ONE_SOL, venue: CURVE, slippageBps: 0n })),
    ).toBe(SPEC.trade.sellInSol);
    const percent = { kind: "percent", hundredths: 100n } as const;
    expect(
      detailOf(() => quoteTrade({ action: "buy", amount: percent, venue: CURVE, slippageBps: 0n })),
    ).toBe(TRADE_RULES.percentOnBuy);
  });

  it("a complete curve", () => {
    const complete: VenueState = { ...CURVE, curve: { ...CURVE.curve, complete: true } };
    expect(
      detailOf(() => quoteTrade({ action: "buy", amount: ONE_SOL, venue: complete, slippageBps: 0n })),
    ).toBe(TRADE_RULES.curveComplete);
  });

  it("exact-token buys beyond the curve's real tokens", () => {
    const amount = { kind: "tokens", units: 793_100_000_000_001n } as const;
    expect(detailOf(() => quoteTrade({ action: "buy", amount, venue: CURVE, slippageBps: 0n }))).toBe(
      TRADE_RULES.exceedsReserves,
    );
  });

  it("dust that buys or sells nothing", () => {
    const dust = { kind: "sol", lamports: 1n } as const;
    expect(detailOf(() => quoteTrade({ action: "buy", amount: dust, venue: CURVE, slippageBps: 0n }))).toBe(
      TRADE_RULES.tradeTooSmall,
    );
    expect(detailOf(() => quoteTrade({ action: "buy", amount: dust, venue: POOL, slippageBps: 0n }))).toBe(
      TRADE_RULES.tradeTooSmall,
    );
    const oneToken = { kind: "tokens", units: 1n } as const;
    expect(
      detailOf(() => quoteTrade({ action: "sell", amount: oneToken, venue: CURVE, slippageBps: 0n })),
    ).toBe(TRADE_RULES.tradeTooSmall);
  });

  it("caps a SOL buy's minimum at the tokens the curve still has", () => {
    const nearlyDone: VenueState = { ...CURVE, curve: { ...CURVE.curve, realTokenReserves: 1_000_000n } };
    const q = quoteTrade({ action: "buy", amount: ONE_SOL, venue: nearlyDone, slippageBps: 0n });
    expect(q.expectedOutput).toBe(1_000_000n);
  });
});

describe("swap SOL buy stays within the SOL amount", () => {
  it("the quoted base costs at most the lamports sent, so even 0 % slippage lands on unchanged reserves", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 9n, max: 10n ** 15n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 13n }),
        fc.bigInt({ min: 1_000n, max: 10n ** 12n }),
        fc.constantFrom(0n, 2n, 20n, 30n),
        fc.constantFrom(5n, 93n),
        fc.constantFrom(0n, 30n, 95n),
        (baseReserve, quoteReserve, lamports, lpFeeBps, protocolFeeBps, creatorFeeBps) => {
          const venue: VenueState = {
            venue: "launchswap",
            reserves: { baseReserve, quoteReserve, virtualQuoteReserves: 0n },
            fees: { lpFeeBps, protocolFeeBps, creatorFeeBps },
          };
          let q;
          try {
            q = quoteTrade({ action: "buy", amount: { kind: "sol", lamports }, venue, slippageBps: 0n });
          } catch (error) {
            expect((error as ApiError).detail).toBe(TRADE_RULES.tradeTooSmall);
            return;
          }
          expect(q.args.instruction).toBe("buy");
          const cost = swapBuyBaseInput(q.quoted, venue.reserves, venue.fees).totalQuote;
          expect(cost <= q.expectedOutput).toBe(true);
          expect(q.expectedOutput).toBe(lamports);
        },
      ),
      { numRuns: 500 },
    );
  });
});
