/** The copy order's pure rules: the sizing of a copied buy and sell, and the price move since their trade. */
import { describe, expect, it } from "vitest";
import {
  copiesSide,
  copyBuyLamports,
  copySellAmount,
  priceMoveHundredths,
  type CopySpec,
} from "../../../../src/domain/orders/copy.js";

const base: CopySpec = {
  kind: "copy",
  follow: [],
  sizing: { kind: "ratio", millionths: 500_000n },
  sizingText: "0.5",
  sellSizing: "percent",
  sides: "both",
  maxPerTokenLamports: null,
  maxPerDayLamports: null,
  delayMs: 0,
  maxMoveHundredths: null,
  slippageBps: 500n,
  priorityFeeLamports: null,
  tipLamports: null,
};

describe("copy sizing", () => {
  it("a buy is the fixed SOL or their SOL × ratio", () => {
    expect(copyBuyLamports(base, 300_000_000n)).toBe(150_000_000n);
    expect(copyBuyLamports({ ...base, sizing: { kind: "sol", lamports: 7n } }, 300_000_000n)).toBe(7n);
    expect(copyBuyLamports({ ...base, sizing: { kind: "none" } }, 300_000_000n)).toBe(0n);
  });

  it("a sell is the share they sold of theirs, or their units × ratio capped at ours", () => {
    expect(copySellAmount(base, 1_000n, 250n, 750n)).toBe("25%");
    expect(copySellAmount(base, 1_000n, 1n, 99_999n)).toBe("0.01%");
    expect(copySellAmount(base, 1_000n, 500n, 0n)).toBe("100%");
    expect(copySellAmount(base, 0n, 500n, 0n)).toBeNull();
    const ratio = { ...base, sellSizing: "ratio" as const };
    expect(copySellAmount(ratio, 1_000n, 600n, null)).toBe("300");
    expect(copySellAmount(ratio, 1_000n, 4_000n, null)).toBe("100%");
  });

  it("sides and the price move (either way, rounded up)", () => {
    expect(copiesSide({ ...base, sides: "buys" }, "sell")).toBe(false);
    expect(copiesSide({ ...base, sides: "sells" }, "sell")).toBe(true);
    expect(priceMoveHundredths({ quote: 100n, base: 100n }, { quote: 102n, base: 100n })).toBe(200n);
    expect(priceMoveHundredths({ quote: 100n, base: 100n }, { quote: 100n, base: 102n })).toBe(197n);
    expect(priceMoveHundredths({ quote: 100n, base: 100n }, { quote: 100n, base: 100n })).toBe(0n);
  });
});
