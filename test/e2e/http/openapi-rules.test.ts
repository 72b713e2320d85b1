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
    const paramOf = (path: string, method: string, name: string): Json =>
      (doc.paths[path][method].parameters as Json[]).find((p) => p.name === name)!;
    const address = "^[1-9A-HJ-NP-Za-km-z]{32,44}$";
    expect(paramOf("/v1/wallets/{public_key}/balances", "get", "public_key").schema.pattern).toBe(address);
    expect(paramOf("/v1/positions/{wallet}/{mint}", "get", "mint").schema.pattern).toBe(address);
    // A wallet path that is no address answers 404 wallet not found there: any text, and the 404 stated.
    for (const [path, method] of [
      ["/v1/wallets/{public_key}", "delete"],
      ["/v1/wallets/{public_key}/default", "put"],
    ] as const) {
      expect(paramOf(path, method, "public_key").schema.pattern).toBeUndefined();
      expect(doc.paths[path][method].responses["404"]).toBeDefined();
    }
    // The orders body: every field typed, exactly one variant per kind (and side); enums on the queries.
    const order = doc.paths["/v1/orders"].post.requestBody.content["application/json"].schema;
    expect(order.properties.kind.enum).toContain("trailing_stop");
    expect(order.oneOf.length).toBeGreaterThanOrEqual(9);
    expect(paramOf("/v1/orders", "get", "state").schema.enum).toContain("open");
    expect(paramOf("/v1/pnl", "get", "group_by").schema.enum).toEqual(["day", "mint", "wallet"]);
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
