/** The pure Idempotency-Key rules: header validation and request fingerprints. */
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY } from "../../../../src/core/errors.js";
import {
  canonicalJson,
  parseIdempotencyKey,
  requestFingerprint,
} from "../../../../src/domain/execution/idempotency.js";

describe("parseIdempotencyKey", () => {
  it("accepts 1 to 255 printable ASCII characters", () => {
    for (const ok of [
      "a",
      " ",
      "~",
      "x".repeat(255),
      "550e8400-e29b-41d4-a716-446655440000",
      "a b!\"#$%&'()*+,-./",
    ])
      expect(parseIdempotencyKey(ok)).toBe(ok);
  });

  it("refuses everything else with the same text", () => {
    for (const bad of [
      "",
      "x".repeat(256),
      "caf\u00e9",
      "tab\there",
      "nul\u0000",
      "\u007f",
      "emoji😀",
      undefined,
      ["a", "b"],
    ])
      expect(() => parseIdempotencyKey(bad)).toThrow(IDEMPOTENCY.invalidKey);
  });
});

describe("requestFingerprint", () => {
  it("ignores key order and absent fields, not values, routes or methods", () => {
    const f = (body: unknown, route = "/v1/trades/execute", method = "POST") =>
      requestFingerprint(method, route, body);
    expect(f({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(f({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
    expect(f({ a: 1, b: undefined })).toBe(f({ a: 1 }));
    expect(f({ a: 1 })).not.toBe(f({ a: "1" }));
    expect(f({ a: [1, 2] })).not.toBe(f({ a: [2, 1] }));
    expect(f({ a: 1 })).not.toBe(f({ a: 1 }, "/v1/sol/transfer/execute"));
    expect(f(undefined)).toBe(f(null));
    expect(f({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("canonical JSON escapes keys and strings as JSON does", () => {
    expect(canonicalJson({ 'q"': "\n", z: null, a: [true] })).toBe('{"a":[true],"q\\"":"\\n","z":null}');
  });
});
