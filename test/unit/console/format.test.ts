/** The console's amount formatting (console/src/format.ts): exact bigint arithmetic, signs, trimming. */
import { describe, expect, it } from "vitest";
import { big, fixed, short, signedSol, sol, tone } from "../../../console/src/format.js";

describe("console amounts", () => {
  it("formats lamports as SOL without floating point, trimmed to the places asked", () => {
    expect(sol("10000000000")).toBe("10");
    expect(sol("9944123456")).toBe("9.9441");
    expect(sol("9944123456", 9)).toBe("9.944123456");
    expect(sol(1n)).toBe("0");
    expect(sol(1n, 9)).toBe("0.000000001");
    expect(sol("123456789000000000")).toBe("123,456,789");
    // Above 2^53: still exact.
    expect(sol("9007199254740993123", 9)).toBe("9,007,199,254.740993123");
  });

  it("signs PnL and colours it", () => {
    expect(signedSol("2300000")).toBe("+0.0023");
    expect(signedSol("-2300000")).toBe("-0.0023");
    expect(signedSol("0")).toBe("0");
    expect(tone("5")).toBe("gain");
    expect(tone("-5")).toBe("loss");
    expect(tone(null)).toBe("");
  });

  it("formats token units with the mint's decimals", () => {
    expect(fixed(1763352433103n, 6, 2)).toBe("1,763,352.43");
    expect(fixed(-1500000n, 6)).toBe("-1.5");
  });

  it("reads API amounts leniently and shortens addresses", () => {
    expect(big("42")).toBe(42n);
    expect(big(null)).toBe(0n);
    expect(big("not a number")).toBe(0n);
    expect(short("BquyFb9WXsxzaZPg5chEmgbkKYs1TYHsmbTJB2hJMM9Q")).toBe("Bquy…MM9Q");
    expect(short("abc")).toBe("abc");
  });
});
