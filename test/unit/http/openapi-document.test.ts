/**
 * Issues 22 and 23: over the whole generated OpenAPI document, every operation has an operationId and a
 * description, every response field (nested too) a description, repeated shapes are named components,
 * and the execution routes' request bodies carry examples. A new route or field without them fails here
 * (how to add them: docs/decisions.md, issue 23).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serviceOpenApiDocument } from "../../../scripts/client-types.js";
import { EXECUTION_KIND_LIST } from "../../../src/domain/kinds.js";
import {
  bodiesWithoutExamples,
  operationsOf,
  repeatedInlineShapes,
  undescribedFields,
} from "../../helpers/openapi-audit.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

let doc: Json;
beforeAll(async () => {
  doc = (await serviceOpenApiDocument()) as Json;
});

const EXECUTION_PATHS = EXECUTION_KIND_LIST.map((k) => k.path);

describe("the generated OpenAPI document", () => {
  it("gives every operation an operationId, a summary, a description and a described success answer", () => {
    for (const [m, p, op] of operationsOf(doc)) {
      expect(typeof op.operationId, `${m} ${p}`).toBe("string");
      expect(op.summary, `${m} ${p} summary`).toMatch(/\S/);
      expect(op.description, `${m} ${p} description`).toMatch(/\S/);
      const success = Object.keys(op.responses as Json).filter((s) => /^(2\d\d|101)$/.test(s));
      expect(success, `${m} ${p}`).not.toEqual([]);
      for (const [status, r] of Object.entries(op.responses as Record<string, Json>))
        expect(r.description, `${m} ${p} ${status}`).not.toBe("Default Response");
    }
  });

  it("describes every field of every response and every component", () => {
    expect(undescribedFields(doc)).toEqual([]);
  });

  it("names the shared shapes as components and references them", () => {
    const schemas = Object.keys(doc.components.schemas as Json);
    expect(schemas).toEqual(
      expect.arrayContaining([
        "Error",
        "ServerError",
        "Refusal",
        "Wallet",
        "NewWallet",
        "Execution",
        "Fill",
        "Event",
        "Key",
        "NewKey",
        "Policy",
        "Webhook",
        "WebhookDelivery",
        "DryRun",
        "DryRunTransaction",
      ]),
    );
    // Names are the schemas' $id, not the resolver's def-0, def-1.
    expect(schemas.filter((n) => /^def-\d+$/.test(n))).toEqual([]);
    const json = (status: string, path: string, method: string) =>
      doc.paths[path][method].responses[status].content["application/json"].schema;
    expect(json("200", "/v1/executions/{id}", "get")).toEqual({ $ref: "#/components/schemas/Execution" });
    expect(json("400", "/v1/trades/execute", "post")).toEqual({ $ref: "#/components/schemas/Error400" });
    expect(json("200", "/v1/trades/execute", "post").oneOf[1]).toEqual({
      $ref: "#/components/schemas/DryRun",
    });
    expect(repeatedInlineShapes(doc)).toEqual([]);
  });

  it("gives the request body of every execution route named examples", () => {
    expect(EXECUTION_PATHS.length).toBeGreaterThan(0);
    expect(bodiesWithoutExamples(doc, EXECUTION_PATHS)).toEqual([]);
    const examples = doc.paths["/v1/trades/execute"].post.requestBody.content["application/json"].examples;
    expect(examples.buy.value).toMatchObject({ action: "buy" });
    expect(typeof examples.buy.summary).toBe("string");
  });
});

describe("the document checks", () => {
  const response = (schema: Json): Json => ({
    paths: {
      "/a": { get: { responses: { "200": { content: { "application/json": { schema } } } } } },
      "/b": { get: { responses: { "200": { content: { "application/json": { schema } } } } } },
    },
    components: {
      schemas: { Named: { type: "object", description: "described" }, Bare: { type: "object" } },
    },
  });

  it("find an undescribed field however deep, and accept a $ref to a described component", () => {
    const found = undescribedFields(
      response({
        type: "object",
        properties: {
          ok: { type: "string", description: "yes" },
          named: { $ref: "#/components/schemas/Named" },
          list: {
            type: "array",
            description: "items",
            items: { type: "object", properties: { deep: { type: "integer" } } },
          },
        },
      }),
    );
    expect(found).toEqual(["GET /a 200.list[].deep", "GET /b 200.list[].deep", "components.schemas.Bare"]);
  });

  it("find an inline shape repeated across operations, and a missing example", () => {
    const shape = { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: {} } };
    expect(repeatedInlineShapes(response(shape))).toEqual([
      "GET /a and GET /b: {a:string,b:string,c:undefined}",
    ]);
    const doc2 = {
      paths: { "/x": { post: { requestBody: { content: { "application/json": { schema: {} } } } } } },
    };
    expect(bodiesWithoutExamples(doc2, ["/x"])).toEqual(["POST /x"]);
  });
});
