/** Issue 22 item 5: parsing and bounds of `priority_fee` and `tip`, with the exact texts; the price rule. */
import { describe, expect, it } from "vitest";
import { REQUEST_FEES } from "../../../src/core/errors.js";
import { checkTipMax, computeUnitPriceFor, parseRequestFees } from "../../../src/core/fee-fields.js";
import { priorityFeeLamports } from "../../../src/domain/keys/spend.js";
import { loadRequestFeeSettings } from "../../../src/config/request-fees.js";
import { ConfigError } from "../../../src/config/config.js";

const bounds = { priorityFeeMaxLamports: 10_000_000n, tipMaxLamports: 1_000_000n };
const detail = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return "no error";
};

describe("parseRequestFees", () => {
  it("is empty without the fields (nothing changes)", () => {
    expect(parseRequestFees({ amount: "1" }, bounds)).toEqual({});
    expect(parseRequestFees({ priority_fee: null, tip: null }, bounds)).toEqual({});
  });

  it("reads SOL as decimal strings or numbers into lamports; 0 priority fee allowed", () => {
    expect(parseRequestFees({ priority_fee: "0.0001", tip: 0.0002 }, bounds)).toEqual({
      priorityFeeLamports: 100_000n,
      tipLamports: 200_000n,
    });
    expect(parseRequestFees({ priorityFee: 0.000005 }, bounds)).toEqual({ priorityFeeLamports: 5_000n });
    expect(parseRequestFees({ priority_fee: 0 }, bounds)).toEqual({ priorityFeeLamports: 0n });
    expect(parseRequestFees({ priority_fee: "0.000" }, bounds)).toEqual({ priorityFeeLamports: 0n });
    expect(parseRequestFees({ priority_fee: "1e-5" }, bounds)).toEqual({ priorityFeeLamports: 10_000n });
  });

  it("refuses garbage and negatives with the field's text", () => {
    for (const v of ["abc", "", "-0.1", -1, true, {}, [], "0.0000000001", "NaN"])
      expect(detail(() => parseRequestFees({ priority_fee: v }, bounds))).toBe(
        REQUEST_FEES.priorityFeeInvalid,
      );
    for (const v of ["abc", 0, "0", "-0.1", false, "0.0000000001"])
      expect(detail(() => parseRequestFees({ tip: v }, bounds))).toBe(REQUEST_FEES.tipInvalid);
    expect(REQUEST_FEES.priorityFeeInvalid).toBe(
      "priority_fee must be a SOL amount of at least 0 per transaction (number or decimal string, at most 9 decimals)",
    );
    expect(REQUEST_FEES.tipInvalid).toBe(
      "tip must be a positive SOL amount (number or decimal string, at most 9 decimals)",
    );
  });

  it("refuses values above the configured maximum, naming it; the maximum itself passes", () => {
    expect(detail(() => parseRequestFees({ priority_fee: "0.010000001" }, bounds))).toBe(
      "priority_fee 0.010000001 SOL is above the maximum of 0.01 SOL per transaction (PRIORITY_FEE_MAX_SOL)",
    );
    expect(parseRequestFees({ priority_fee: "0.01" }, bounds)).toEqual({ priorityFeeLamports: 10_000_000n });
    expect(detail(() => parseRequestFees({ tip: 2 }, bounds))).toBe(
      "tip 2 SOL is above the maximum of 0.001 SOL (TIP_MAX_SOL)",
    );
  });

  it("an alias that disagrees is a 400; one that agrees is fine", () => {
    expect(detail(() => parseRequestFees({ priority_fee: "0.001", priorityFee: "0.002" }, bounds))).toBe(
      "priorityFee and priority_fee name the same field and disagree; send one of them",
    );
    expect(parseRequestFees({ priority_fee: "0.001", priorityFee: "0.001" }, bounds)).toEqual({
      priorityFeeLamports: 1_000_000n,
    });
  });

  it("on a bundle reads only the priority fee: bundleTip and tip are the bundle parser's, bounded there", () => {
    expect(parseRequestFees({ bundleTip: "0.0001" }, bounds, true)).toEqual({});
    // Above TIP_MAX_SOL: the bundle's parser refuses it with REQUEST_FEES.tipTooHigh, after its leg rules
    // (test/unit/domain/bundle/shape-tip.test.ts, under each of the tip's names).
    expect(parseRequestFees({ bundleTip: "0.5" }, bounds, true)).toEqual({});
    expect(parseRequestFees({ tip: "0.5" }, bounds, true)).toEqual({});
    // Garbage is the bundle endpoint's own 400 (the spec's text), not this one.
    expect(parseRequestFees({ bundleTip: "abc" }, bounds, true)).toEqual({});
    expect(parseRequestFees({ priority_fee: "0.0001", bundleTip: "abc" }, bounds, true)).toEqual({
      priorityFeeLamports: 100_000n,
    });
    expect(detail(() => parseRequestFees({ priority_fee: "abc" }, bounds, true))).toBe(
      REQUEST_FEES.priorityFeeInvalid,
    );
  });

  it("checkTipMax refuses only above the maximum", () => {
    expect(() => checkTipMax(1_000_000n, 1_000_000n)).not.toThrow();
    expect(detail(() => checkTipMax(1_000_001n, 1_000_000n))).toBe(
      "tip 0.001000001 SOL is above the maximum of 0.001 SOL (TIP_MAX_SOL)",
    );
  });
});

describe("computeUnitPriceFor", () => {
  it("makes the runtime charge exactly the asked lamports for every limit up to 1 000 000 CU", () => {
    for (const limit of [1, 999, 50_000, 54_095, 250_000, 253_911, 500_000, 1_000_000])
      for (const lamports of [0n, 1n, 7n, 5_000n, 123_456n, 10_000_000n, 100_000_000n])
        expect(priorityFeeLamports(computeUnitPriceFor(lamports, limit), limit), `${limit} ${lamports}`).toBe(
          lamports,
        );
  });

  it("never charges more than asked above 1 000 000 CU", () => {
    for (const lamports of [1n, 123_456n, 99_999_999n])
      expect(priorityFeeLamports(computeUnitPriceFor(lamports, 1_400_000), 1_400_000)).toBeLessThanOrEqual(
        lamports,
      );
  });
});

describe("loadRequestFeeSettings", () => {
  it("defaults to 0.1 SOL each and warnings (not strict)", () => {
    expect(loadRequestFeeSettings({})).toEqual({
      priorityFeeMaxLamports: 100_000_000n,
      tipMaxLamports: 100_000_000n,
      strictFields: false,
    });
  });

  it("reads PRIORITY_FEE_MAX_SOL, TIP_MAX_SOL and STRICT_FIELDS; refuses bad values naming the variable", () => {
    expect(
      loadRequestFeeSettings({ PRIORITY_FEE_MAX_SOL: "0.005", TIP_MAX_SOL: "1", STRICT_FIELDS: "true" }),
    ).toEqual({ priorityFeeMaxLamports: 5_000_000n, tipMaxLamports: 1_000_000_000n, strictFields: true });
    for (const env of [{ PRIORITY_FEE_MAX_SOL: "0" }, { TIP_MAX_SOL: "x" }, { STRICT_FIELDS: "yes" }]) {
      const e = (() => {
        try {
          loadRequestFeeSettings(env);
        } catch (x) {
          return x;
        }
        return undefined;
      })();
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toContain(Object.keys(env)[0]);
    }
  });
});
