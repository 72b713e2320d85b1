/** The swagger transform adds types to documented request bodies and queries, keeping descriptions. */
import { describe, expect, it } from "vitest";
import { openapiBodyTypes } from "../../../src/http/openapi/body-types.js";
import { tradeKind } from "../../../src/domain/trade/kind.js";
import { recordedKinds } from "../../../src/domain/execution/kind.js";
import { EXECUTION_KIND_LIST } from "../../../src/domain/kinds.js";

const kinds = recordedKinds(EXECUTION_KIND_LIST);

describe("openapiBodyTypes", () => {
  it("states an execution kind's body from its descriptor: typed, described, required fields, examples", () => {
    const schema = {
      body: { type: "object", properties: { action: { description: "buy or sell" }, mint: {} } },
      response: { 200: { type: "object" } },
    };
    const out = openapiBodyTypes(
      {
        schema,
        url: "/v1/trades/execute",
        route: { method: "POST", config: { kind: tradeKind } },
      },
      kinds,
    );
    const body = out.schema.body as { properties: Record<string, object>; required: string[] };
    expect(Object.keys(body)).toContain("x-examples");
    expect(body.properties.action).toEqual({
      description: "buy or sell (alias side)",
      type: "string",
      enum: ["buy", "sell"],
    });
    expect(body.properties.amount).toMatchObject({ oneOf: [{ type: "string" }, { type: "number" }] });
    // Issue 30: amount or amount_tokens, one of them (the parser's rule).
    expect(body.required).toEqual(["action", "mint"]);
    expect(out.schema.response).toBe(schema.response);
    expect(out.url).toBe("/v1/trades/execute");
  });

  it("types the history query and leaves other routes untouched", () => {
    const q = openapiBodyTypes(
      {
        schema: { querystring: { type: "object", properties: { limit: { description: "page size" } } } },
        url: "/v1/executions",
        route: { method: ["GET", "HEAD"] },
      },
      kinds,
    );
    expect((q.schema.querystring as { properties: { limit: object } }).properties.limit).toEqual({
      description: "page size",
      type: "integer",
      // Issue 23: the document states the parser's bounds.
      minimum: 1,
      maximum: 200,
    });
    const schema = { body: { type: "object" } };
    expect(openapiBodyTypes({ schema, url: "/v1/wallets", route: { method: "POST" } }, kinds).schema).toBe(
      schema,
    );
  });
});
