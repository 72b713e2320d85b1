import { describe, expect, it } from "vitest";
import bs58 from "bs58";
import { randomBytes } from "node:crypto";
import { encodeBase58 } from "../../../src/core/base58.js";

describe("encodeBase58", () => {
  it("writes the same text as bs58.encode", () => {
    for (let n = 0; n < 20_000; n++) {
      const bytes = randomBytes(n % 80);
      // Leading zero bytes (the "1"s) and all-zero inputs, often.
      for (let i = 0; i < Math.min(n % 7, bytes.length); i++) bytes[i] = 0;
      if (n % 13 === 0) bytes.fill(0);
      expect(encodeBase58(bytes)).toBe(bs58.encode(bytes));
    }
  });

  it("encodes signatures, keys and edge values", () => {
    for (const hex of [
      "",
      "00",
      "0000",
      "01",
      "ff",
      "00ff",
      "0000000001",
      "ff".repeat(64),
      "00".repeat(32),
    ]) {
      const bytes = Buffer.from(hex, "hex");
      expect(encodeBase58(bytes)).toBe(bs58.encode(bytes));
    }
    const sig = new Uint8Array(randomBytes(64));
    expect(encodeBase58(sig.subarray(0, 64))).toBe(bs58.encode(sig));
  });
});
