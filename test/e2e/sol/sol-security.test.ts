/**
 * The shared security suite on the cashback and SOL routes, plus what they answer on an app built without a
 * chain, and their presence in the OpenAPI document with whitelist response schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTION } from "../../../src/core/errors.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { expectAuthRequired } from "../../helpers/security.js";

const ROUTES = [
  "/v1/cashback/check",
  "/v1/cashback/claim/execute",
  "/v1/sol/consolidate/execute",
  "/v1/sol/transfer/execute",
  "/v1/sol/split/execute",
];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("cashback and SOL routes", () => {
  it.each(ROUTES)("POST %s requires a valid x-api-key", async (url) => {
    await expectAuthRequired(t.app, "POST", url);
  });

  it.each(ROUTES)("POST %s answers 503 when the server has no chain access", async (url) => {
    const { apiKey } = await t.setup();
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: "execution.chain_unavailable", detail: EXECUTION.chainUnavailable });
  });

  it("are documented with closed response schemas", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json<{
      paths: Record<
        string,
        { post?: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }
      >;
    }>();
    for (const url of ROUTES) {
      const documented = doc.paths[url]?.post?.responses["200"]?.content?.["application/json"]?.schema as
        { additionalProperties?: boolean; oneOf?: { additionalProperties?: boolean }[] } | undefined;
      // With issue 19's dry run the 200 is oneOf [the route's own answer, the dry-run answer].
      const ok = documented?.oneOf?.[0] ?? documented;
      expect(ok, url).toBeDefined();
      expect(ok?.additionalProperties, url).toBe(false);
    }
  });
});
