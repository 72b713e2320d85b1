import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/core/errors.js";
import { parseQueryInt } from "../../../src/core/request-fields.js";

const refused = (value: unknown, range: { min?: number; max: number }): unknown => {
  try {
    parseQueryInt(value, "bad number", range);
  } catch (e) {
    return e;
  }
  return undefined;
};

describe("parseQueryInt", () => {
  it("reads digits, a JSON number and surrounding spaces", () => {
    expect(parseQueryInt("42", "x", { max: 200 })).toBe(42);
    expect(parseQueryInt(" 7 ", "x", { min: 1, max: 200 })).toBe(7);
    expect(parseQueryInt(60, "x", { max: 60 })).toBe(60);
    expect(parseQueryInt("0", "x", { max: 60 })).toBe(0);
  });

  it("treats undefined, null and the empty string as absent", () => {
    expect(parseQueryInt(undefined, "x", { max: 9 })).toBeUndefined();
    expect(parseQueryInt(null, "x", { max: 9 })).toBeUndefined();
    expect(parseQueryInt("", "x", { max: 9 })).toBeUndefined();
  });

  it("refuses out of range, signs, decimals, too many digits and other types with the given text", () => {
    for (const [value, range] of [
      ["0", { min: 1, max: 200 }],
      ["201", { min: 1, max: 200 }],
      ["-1", { max: 200 }],
      ["1.5", { max: 200 }],
      ["1e2", { max: 200 }],
      ["0050", { max: 200 }],
      ["abc", { max: 200 }],
      [["1", "2"], { max: 200 }],
      [true, { max: 200 }],
    ] as const) {
      const e = refused(value, range);
      expect(e, String(value)).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 400, detail: "bad number" });
    }
  });
});
