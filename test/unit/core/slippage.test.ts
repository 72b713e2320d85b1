import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import {
  maxAfterSlippage,
  minAfterSlippage,
  parseSlippageBps,
  parseSlippagePercent,
  resolveTradeSlippage,
} from "../../../src/core/slippage.js";
import { badRequestDetailOf } from "../../helpers/expect.js";

describe("resolveTradeSlippage", () => {
  it("defaults to 2% = 200 bps (null counts as absent)", () => {
    expect(resolveTradeSlippage({})).toBe(200n);
    expect(resolveTradeSlippage({ slippage: null, slippage_bps: null })).toBe(200n);
  });

  it("reads percent as number or string, up to 2 decimals, 0..50", () => {
    expect(resolveTradeSlippage({ slippage: 5 })).toBe(500n);
    expect(resolveTradeSlippage({ slippage: "0.5" })).toBe(50n);
    expect(resolveTradeSlippage({ slippage: 0.01 })).toBe(1n);
    expect(resolveTradeSlippage({ slippage: "50" })).toBe(5_000n);
    expect(resolveTradeSlippage({ slippage: 0 })).toBe(0n);
    expect(resolveTradeSlippage({ slippage: "12.34" })).toBe(1_234n);
    expect(resolveTradeSlippage({ slippage: 1e-2 })).toBe(1n);
  });

  it("reads slippage_bps as an integer 0..5000", () => {
    expect(resolveTradeSlippage({ slippage_bps: 500 })).toBe(500n);
    expect(resolveTradeSlippage({ slippage_bps: "250" })).toBe(250n);
    expect(resolveTradeSlippage({ slippage_bps: 0 })).toBe(0n);
    expect(resolveTradeSlippage({ slippage_bps: 5000 })).toBe(5_000n);
  });

  it("refuses both at once with the spec text", () => {
    expect(badRequestDetailOf(() => resolveTradeSlippage({ slippage: 1, slippage_bps: 100 }))).toBe(
      SPEC.trade.slippageBoth,
    );
  });

  it("refuses out-of-range and over-precise percents", () => {
    for (const v of [50.01, "51", -1, "-0.01", 100]) {
      expect(badRequestDetailOf(() => resolveTradeSlippage({ slippage: v }))).toBe(TRADE_RULES.slippageRange);
    }
    for (const v of [0.001, "1.005", "49.999"]) {
      expect(badRequestDetailOf(() => resolveTradeSlippage({ slippage: v }))).toBe(
        TRADE_RULES.slippageDecimals,
      );
    }
    for (const v of ["abc", true, {}, "", "NaN"]) {
      expect(badRequestDetailOf(() => resolveTradeSlippage({ slippage: v }))).toBe(
        TRADE_RULES.slippageInvalid,
      );
    }
  });

  it("refuses bad slippage_bps", () => {
    for (const v of [5001, -1, 1.5, "1.5", "abc", true, "-5", 1e20]) {
      expect(badRequestDetailOf(() => resolveTradeSlippage({ slippage_bps: v }))).toBe(
        TRADE_RULES.slippageBps,
      );
    }
  });

  it("create's variant requires > 0", () => {
    expect(badRequestDetailOf(() => parseSlippagePercent(0, { allowZero: false }))).toBe(
      TRADE_RULES.slippagePositiveRange,
    );
    expect(parseSlippagePercent("0.01", { allowZero: false })).toBe(1n);
    expect(parseSlippageBps(" 42 ")).toBe(42n);
  });
});

describe("thresholds", () => {
  it("known values", () => {
    expect(minAfterSlippage(1_000n, 200n)).toBe(980n);
    expect(maxAfterSlippage(1_000n, 200n)).toBe(1_020n);
    expect(minAfterSlippage(99n, 200n)).toBe(98n); // 97.02 rounds up
    expect(maxAfterSlippage(99n, 200n)).toBe(100n); // 100.98 rounds down
    expect(minAfterSlippage(1n, 200n)).toBe(1n);
    expect(minAfterSlippage(1_000n, 0n)).toBe(1_000n);
    expect(maxAfterSlippage(1_000n, 5_000n)).toBe(1_500n);
  });

  it("are never looser than asked and lose less than one unit", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.bigInt({ min: 0n, max: 5_000n }), (x, bps) => {
        const min = minAfterSlippage(x, bps);
        const max = maxAfterSlippage(x, bps);
        // min × 10000 ≥ x × (10000 − bps), and it is the smallest such integer
        expect(min * 10_000n >= x * (10_000n - bps)).toBe(true);
        expect((min - 1n) * 10_000n < x * (10_000n - bps)).toBe(true);
        expect(max * 10_000n <= x * (10_000n + bps)).toBe(true);
        expect((max + 1n) * 10_000n > x * (10_000n + bps)).toBe(true);
        expect(min <= x && x <= max).toBe(true);
      }),
    );
  });

  it("match pump-sdk's builders for whole-tenth percents", () => {
    // pump-sdk: max = x + floor(x * floor(s*10) / 1000), min = x - floor(x * floor(s*10) / 1000)
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.integer({ min: 0, max: 500 }), (x, tenths) => {
        const sdkDelta = (x * BigInt(tenths)) / 1000n;
        const bps = BigInt(tenths) * 10n;
        expect(maxAfterSlippage(x, bps)).toBe(x + sdkDelta);
        expect(minAfterSlippage(x, bps)).toBe(x - sdkDelta);
      }),
    );
  });
});
