import { describe, expect, it } from "vitest";
import { isAddress, parseAddress } from "../../../src/core/addresses.js";
import { ApiError } from "../../../src/core/errors.js";

describe("parseAddress", () => {
  it("accepts base58 32-byte keys", () => {
    for (const key of [
      "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P",
      "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA",
      "11111111111111111111111111111111",
      "So11111111111111111111111111111111111111112",
    ]) {
      expect(parseAddress(key, "bad")).toBe(key);
    }
  });

  it("rejects everything else with the caller's text", () => {
    const bad: unknown[] = [
      "",
      "1111",
      "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P0", // 0 is not base58
      "16EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", // a leading "1" adds a zero byte: 33 bytes
      "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", // 44 chars beyond 2^256
      "1111111111111111111111111111111", // 31 bytes
      "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P ", // trailing space
      "O".repeat(44),
      42,
      null,
      undefined,
      { key: "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P" },
    ];
    for (const value of bad) {
      expect(isAddress(value)).toBe(false);
      expect(() => parseAddress(value, "invalid thing")).toThrow(new ApiError(400, "invalid thing"));
    }
  });

  it("answers the same on a repeat (valid texts are remembered, invalid ones decoded again)", () => {
    const valid = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
    const short = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ1"; // decodes to fewer than 32 bytes
    for (let i = 0; i < 3; i++) {
      expect(isAddress(valid)).toBe(true);
      expect(isAddress(short)).toBe(false);
      expect(isAddress(`${valid}0`)).toBe(false);
    }
  });
});
