/**
 * Issue 23: the OpenAPI document states the rules the service enforces, and the rules it states are the ones
 * the parsers apply. (That every answer matches the document is checked for every test app:
 * test/helpers/openapi-setup.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../helpers/app.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await buildTestApp();
  doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json<Json>();
});
afterAll(async () => t.close());

const operations = (): [string, string, Json][] =>
  Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
    Object.entries(ops as Json).map(
      ([method, op]) => [method.toUpperCase(), path, op as Json] as [string, string, Json],
    ),
  );

describe("the OpenAPI document", () => {
  it("names and describes every operation, with unique operationIds", () => {
    const ids = operations().map(([m, p, op]) => {
      expect(typeof op.operationId, `${m} ${p}`).toBe("string");
      expect(typeof op.description, `${m} ${p}`).toBe("string");
      return op.operationId as string;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("states 429 with Retry-After everywhere, 413/415 on bodies, 500, and Idempotent-Replayed", () => {
    for (const [m, p, op] of operations()) {
      expect(op.responses["429"]?.headers?.["Retry-After"], `${m} ${p}`).toBeDefined();
      expect(op.responses["500"], `${m} ${p}`).toBeDefined();
      if (m === "POST") {
        expect(op.responses["413"], `${m} ${p}`).toBeDefined();
        expect(op.responses["415"], `${m} ${p}`).toBeDefined();
      }
    }
    expect(doc.paths["/v1/wallets"].post.responses["400"]).toBeDefined();
    const trade = doc.paths["/v1/trades/execute"].post;
    expect(trade.responses["200"].headers["Idempotent-Replayed"]).toBeDefined();
    expect(
      trade.parameters.find((p: Json) => p.in === "header" && /idempotency-key/i.test(p.name)),
    ).toBeDefined();
  });

  it("states patterns and bounds, and they are the parser's", async () => {
    const pk = doc.paths["/v1/wallets/{public_key}"].delete.parameters.find(
      (p: Json) => p.name === "public_key",
    );
    expect(pk.schema.pattern).toBe("^[1-9A-HJ-NP-Za-km-z]{32,44}$");
    const params = (path: string) => doc.paths[path].get.parameters as Json[];
    const limitOf = (path: string) => params(path).find((p) => p.name === "limit")?.schema;
    expect(limitOf("/v1/executions")).toMatchObject({ minimum: 1, maximum: 200 });
    expect(limitOf("/v1/wallets")).toMatchObject({ minimum: 1, maximum: 1000 });
    const { apiKey } = await t.setup();
    const status = async (url: string) =>
      (await t.app.inject({ method: "GET", url, headers: { "x-api-key": apiKey } })).statusCode;
    for (const [path, max] of [
      ["/v1/executions", 200],
      ["/v1/wallets", 1000],
    ] as const) {
      expect(await status(`${path}?limit=${max}`)).toBe(200);
      expect(await status(`${path}?limit=${max + 1}`)).toBe(400);
      expect(await status(`${path}?limit=0`)).toBe(400);
    }
    expect(await status("/v1/executions?offset=-1")).toBe(400);
  });
});
