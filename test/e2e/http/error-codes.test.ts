/**
 * Issue 30 item 4: a sample of error answers, one per status the error handler produces, each with the body
 * `{"detail", "code"}` (plus its own fields), the spec's detail unchanged and the code of the catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTION, FOUNDATION } from "../../../src/core/errors.js";
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

const send = (
  method: "GET" | "POST" | "PUT",
  url: string,
  headers: Record<string, string> = {},
  payload?: string,
) =>
  t.app.inject({
    method,
    url,
    headers: { "x-api-key": apiKey, ...headers },
    ...(payload !== undefined ? { payload } : {}),
  });

describe("error bodies carry their code", () => {
  it("400, 401, 404, 413, 415 and 503 from the handler, the parsers and the gate", async () => {
    const json = { "content-type": "application/json" };
    const cases: [Promise<{ statusCode: number; json: () => unknown }>, number, Record<string, unknown>][] = [
      [
        send("POST", "/v1/trades/execute", json, "{"),
        400,
        { detail: FOUNDATION.invalidJson, code: "http.invalid_json" },
      ],
      [
        send("POST", "/v1/trades/execute", json, JSON.stringify({ action: "hold", mint: "x", amount: 1 })),
        503,
        { detail: EXECUTION.chainUnavailable, code: "execution.chain_unavailable" },
      ],
      [
        send("GET", "/v1/wallets", { "x-api-key": "lt_nope" }),
        401,
        { detail: FOUNDATION.apiKeyInvalid, code: "auth.invalid_key" },
      ],
      [send("GET", "/v1/nowhere"), 404, { detail: FOUNDATION.notFound, code: "http.route_not_found" }],
      [
        send("PUT", "/v1/wallets/11111111111111111111111111111111/default"),
        404,
        { detail: FOUNDATION.walletNotFound, code: "wallets.not_found" },
      ],
      [
        send("POST", "/v1/wallets", json, JSON.stringify({ pad: "x".repeat(70_000) })),
        413,
        { detail: FOUNDATION.bodyTooLarge, code: "http.body_too_large" },
      ],
      [
        send("POST", "/v1/wallets", { "content-type": "text/plain" }, "hello"),
        415,
        { detail: FOUNDATION.unsupportedContentType, code: "http.unsupported_content_type" },
      ],
      [
        send("GET", "/v1/executions?limit=0"),
        400,
        { detail: EXECUTION.historyLimit, code: "execution.history_limit" },
      ],
    ];
    for (const [pending, status, body] of cases) {
      const res = await pending;
      expect([res.statusCode, res.json()]).toEqual([status, body]);
    }
  });
});
