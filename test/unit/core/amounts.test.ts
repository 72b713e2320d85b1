import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatLamportsAsSol,
  formatUnits,
  parseDecimal,
  parseNonNegativeInteger,
  parsePercent,
  parseSellPercent,
  parseSolAmount,
  parseTokenUnits,
  percentOfBalance,
  U64_MAX,
} from "../../../src/core/amounts.js";
import { SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import { badRequestDetailOf } from "../../helpers/expect.js";

describe("parseSolAmount", () => {
  it.each([
    ["1", 1_000_000_000n],
    ["0.000000001", 1n],
    ["0.123456789", 123_456_789n],
    ["1.5", 1_500_000_000n],
    [".5", 500_000_000n],
    ["2.", 2_000_000_000n],
    ["1e-7", 100n],
    ["5E-9", 5n],
    ["1.5e+3", 1_500_000_000_000n],
    ["100e-11", 1n],
    ["0.1000000000", 100_000_000n],
    ["  3  ", 3_000_000_000n],
    ["18446744073.709551615", U64_MAX],
  ])("string %j -> %s lamports", (text, lamports) => {
    expect(parseSolAmount(text)).toBe(lamports);
  });

  it.each([
    [1, 1_000_000_000n],
    [0.1, 100_000_000n],
    [1e-7, 100n],
    [5e-9, 5n],
    [0.000000001, 1n],
    [123.456789012, 123_456_789_012n],
  ])("JSON number %s -> %s lamports (via its shortest text, no float math)", (value, lamports) => {
    expect(parseSolAmount(value)).toBe(lamports);
  });

  it("rejects 10 decimals, whatever the notation", () => {
    for (const v of ["0.0000000001", "1.0000000001", "1e-10", "15e-11", 1e-10, 1.0000000001]) {
      expect(badRequestDetailOf(() => parseSolAmount(v))).toBe(SPEC.trade.solDecimals);
    }
  });

  it("rejects other JSON types with the spec text", () => {
    for (const v of [true, null, {}, [], undefined]) {
      expect(badRequestDetailOf(() => parseSolAmount(v))).toBe(SPEC.trade.amountType);
    }
  });

  it("rejects non-numeric text, NaN and Infinity", () => {
    for (const v of [
      "",
      " ",
      "abc",
      "NaN",
      "Infinity",
      "-Infinity",
      "1.2.3",
      ".",
      "e5",
      "1e",
      "0x10",
      "1,5",
      "1 000",
      NaN,
      Infinity,
    ]) {
      expect(badRequestDetailOf(() => parseSolAmount(v))).toBe(TRADE_RULES.amountInvalid);
    }
  });

  it("rejects zero and negatives", () => {
    for (const v of ["0", "0.000", "-1", "-0.000000001", 0, -1, "-0"]) {
      expect(badRequestDetailOf(() => parseSolAmount(v))).toBe(TRADE_RULES.amountPositive);
    }
  });

  it("rejects amounts beyond u64 lamports and absurd exponents", () => {
    for (const v of ["18446744073.709551616", "1e30", "1e999999999999", 1e300]) {
      expect(badRequestDetailOf(() => parseSolAmount(v))).toBe(TRADE_RULES.amountTooLarge);
    }
    expect(badRequestDetailOf(() => parseSolAmount("1e-999999999999"))).toBe(SPEC.trade.solDecimals);
  });

  it("takes the caller's texts (create endpoint)", () => {
    expect(
      badRequestDetailOf(() => parseSolAmount("1e-10", { decimals: SPEC.create.initialBuyDecimals })),
    ).toBe(SPEC.create.initialBuyDecimals);
    expect(badRequestDetailOf(() => parseSolAmount("0", { positive: SPEC.create.initialBuyZero }))).toBe(
      SPEC.create.initialBuyZero,
    );
  });

  it("round-trips every lamport amount through formatLamportsAsSol", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: U64_MAX }), (lamports) => {
        expect(parseSolAmount(formatLamportsAsSol(lamports))).toBe(lamports);
      }),
    );
  });

  it("agrees with the exponent form of the same value", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        fc.integer({ min: 0, max: 9 }),
        (digits, shift) => {
          const text = `${digits}e-${shift}`;
          expect(parseSolAmount(text)).toBe(digits * 10n ** BigInt(9 - shift));
        },
      ),
    );
  });
});

describe("parseTokenUnits", () => {
  it("accepts positive integers as numbers or strings", () => {
    expect(parseTokenUnits(1)).toBe(1n);
    expect(parseTokenUnits("1000000")).toBe(1_000_000n);
    expect(parseTokenUnits(9007199254740991)).toBe(9_007_199_254_740_991n);
    expect(parseTokenUnits("18446744073709551615")).toBe(U64_MAX);
    expect(parseTokenUnits("1e6")).toBe(1_000_000n);
  });

  it("rejects zero, fractions, negatives and text", () => {
    for (const v of [0, "0", 1.5, "1.5", -1, "-5", "abc", "", "1e-1"]) {
      expect(badRequestDetailOf(() => parseTokenUnits(v))).toBe(TRADE_RULES.tokenUnits);
    }
  });

  it("rejects JSON numbers the parser has already rounded, and values beyond u64", () => {
    expect(badRequestDetailOf(() => parseTokenUnits(2 ** 60))).toBe(TRADE_RULES.amountUnsafeNumber);
    expect(badRequestDetailOf(() => parseTokenUnits("18446744073709551616"))).toBe(
      TRADE_RULES.amountTooLarge,
    );
  });

  it("rejects other JSON types", () => {
    expect(badRequestDetailOf(() => parseTokenUnits(false))).toBe(SPEC.trade.amountType);
  });
});

describe("percentages", () => {
  it.each([
    ["100%", 10_000n],
    ["0.01%", 1n],
    ["50%", 5_000n],
    ["12.5%", 1_250n],
    ["33.33%", 3_333n],
    ["1e1%", 1_000n],
  ])("%s -> %s hundredths", (text, hundredths) => {
    expect(parseSellPercent(text)).toBe(hundredths);
  });

  it("enforces > 0 and <= 100", () => {
    for (const v of ["0%", "0.00%", "100.01%", "101%", "-1%"]) {
      expect(badRequestDetailOf(() => parseSellPercent(v))).toBe(TRADE_RULES.percentRange);
    }
  });

  it("enforces at most 2 decimals", () => {
    for (const v of ["100.001%", "0.001%", "12.345%"]) {
      expect(badRequestDetailOf(() => parseSellPercent(v))).toBe(TRADE_RULES.percentDecimals);
    }
  });

  it("rejects non-numeric percentages", () => {
    for (const v of ["%", "abc%", "NaN%"])
      expect(badRequestDetailOf(() => parseSellPercent(v))).toBe(TRADE_RULES.amountInvalid);
  });

  it("parsePercent reads text with or without the sign", () => {
    expect(parsePercent("2.5", { maxDecimals: 2 })).toBe(250n);
    expect(parsePercent("2.5%", { maxDecimals: 2 })).toBe(250n);
  });

  it("percentOfBalance never exceeds the balance and 100% is all of it", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: U64_MAX }),
        fc.bigInt({ min: 1n, max: 10_000n }),
        (balance, h) => {
          const units = percentOfBalance(balance, h);
          expect(units <= balance).toBe(true);
          expect(units * 10_000n <= balance * h).toBe(true);
          expect((units + 1n) * 10_000n > balance * h).toBe(true);
        },
      ),
    );
    expect(percentOfBalance(123_456_789n, 10_000n)).toBe(123_456_789n);
  });
});

describe("parseDecimal", () => {
  it("reports each outcome", () => {
    expect(parseDecimal("1.23", 2)).toEqual({ kind: "ok", scaled: 123n });
    expect(parseDecimal("-1.23", 2)).toEqual({ kind: "ok", scaled: -123n });
    expect(parseDecimal("1.234", 2)).toEqual({ kind: "too-precise" });
    expect(parseDecimal("1.230", 2)).toEqual({ kind: "ok", scaled: 123n });
    expect(parseDecimal("0e99999999", 2)).toEqual({ kind: "ok", scaled: 0n });
    expect(parseDecimal("x", 2)).toEqual({ kind: "invalid" });
    expect(parseDecimal("1".repeat(201), 0)).toEqual({ kind: "invalid" });
    expect(parseDecimal("1e41", 0)).toEqual({ kind: "too-large" });
  });
});

describe("formatting", () => {
  it("always prints 9 decimals for SOL", () => {
    expect(formatLamportsAsSol(1n)).toBe("0.000000001");
    expect(formatLamportsAsSol(0n)).toBe("0.000000000");
    expect(formatLamportsAsSol(1_000_000_000n)).toBe("1.000000000");
    expect(formatLamportsAsSol(1_234_567_890_123n)).toBe("1234.567890123");
    expect(formatLamportsAsSol(-5n)).toBe("-0.000000005");
  });

  it("formats other scales", () => {
    expect(formatUnits(123n, 0)).toBe("123");
    expect(formatUnits(5n, 2)).toBe("0.05");
  });
});

describe("parseNonNegativeInteger", () => {
  it.each([
    [0, 0n],
    [5000, 5000n],
    [" 42 ", 42n],
    ["18446744073709551616", 18_446_744_073_709_551_616n],
  ])("accepts %j", (v, want) => {
    expect(parseNonNegativeInteger(v, "e")).toBe(want);
  });
  it.each([-1, 1.5, "-1", "-0", "1e3", "", "123456789012345678901", null, true])("refuses %j", (v) => {
    expect(badRequestDetailOf(() => parseNonNegativeInteger(v, "e"))).toBe("e");
  });
});
