/**
 * Malformed requests the fuzzer (issue 9.5) found answered outside the error catalog: each gets the
 * service's `{"detail"}` body with a fixed text that never quotes the request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_INPUT } from "../../../src/core/errors.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";

let t: TestApp;
let apiKey: string;
beforeAll(async () => {
  t = await buildTestApp();
  apiKey = (await t.setup()).apiKey;
});
afterAll(async () => {
  await t.close();
});

describe("router errors", () => {
  it.each(["/v1/wallets/%zz/default", "/v1/wallets/%", "/v1/wallets/%E0%A4%A"])(
    "a URL with malformed percent-encoding (%s) is a 400 with a detail",
    async (url) => {
      const res = await t.app.inject({
        method: url.endsWith("default") ? "PUT" : "DELETE",
        url,
        headers: { "x-api-key": apiKey },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: HTTP_INPUT.badUrl, code: "http.bad_url" });
    },
  );

  it("a path parameter over 100 characters is a 414 with a detail that does not quote it", async () => {
    const res = await t.app.inject({
      method: "DELETE",
      url: `/v1/wallets/${"x".repeat(500)}`,
      headers: { "x-api-key": apiKey },
    });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ detail: HTTP_INPUT.paramTooLong, code: "http.param_too_long" });
  });
});

describe("deeply nested bodies", () => {
  const post = (payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: "/v1/trades/execute",
      headers: { "x-api-key": apiKey, "content-type": "application/json", ...headers },
      payload,
    });

  it("a body nested thousands deep with an Idempotency-Key is a 400, not a stack overflow", async () => {
    for (const payload of [
      "[".repeat(5000) + "]".repeat(5000),
      '{"a":'.repeat(5000) + "1" + "}".repeat(5000),
    ]) {
      const res = await post(payload, { "idempotency-key": "deep-1" });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: HTTP_INPUT.nestedTooDeep, code: "http.nested_too_deep" });
    }
  });

  it("32 levels pass the parser; brackets inside strings do not count", async () => {
    const at32 = '{"a":'.repeat(31) + "[]" + "}".repeat(31);
    const res = await post(at32, { "idempotency-key": "deep-2" });
    expect(res.json<{ detail: string }>().detail).not.toBe(HTTP_INPUT.nestedTooDeep);
    const res2 = await post(JSON.stringify({ action: "[".repeat(100) + '\\"{'.repeat(50) }));
    expect(res2.json<{ detail: string }>().detail).not.toBe(HTTP_INPUT.nestedTooDeep);
    const res3 = await post("[".repeat(33) + "]".repeat(33));
    expect(res3.json()).toEqual({ detail: HTTP_INPUT.nestedTooDeep, code: "http.nested_too_deep" });
  });
});
