/** Issue 22 item 5: the known-field lists agree with the documented bodies, and unknown fields are named. */
import { describe, expect, it } from "vitest";
import { knownFields, misspeltSwitch, unknownFields } from "../../../src/http/execute/known-fields.js";
import { REQUEST_FEES } from "../../../src/core/errors.js";
import { EXECUTION_KIND_LIST } from "../../../src/domain/kinds.js";
import { buildTestApp } from "../../helpers/app.js";

describe("unknownFields", () => {
  it("names top-level and nested unknown fields in body order; aliases are known", () => {
    expect(
      unknownFields("/v1/trades/execute", {
        side: "buy",
        token_mint: "x",
        denominatedInSol: true,
        slipage: 1,
        priorityFee: 0,
        tip: 1,
        dry_run: true,
        foo: 2,
      }),
    ).toEqual(["slipage", "foo"]);
    expect(
      unknownFields("/v1/laser/bundle", {
        accounts: [{ type: "buy", slippageBps: 1, slipageBps: 2 }, "not an object", { type: "sell", x: 1 }],
        bundle_tip: 1,
      }),
    ).toEqual(["accounts[0].slipageBps", "accounts[2].x"]);
    expect(unknownFields("/v1/wallets", { anything: 1 })).toEqual([]);
    expect(unknownFields("/v1/trades/execute", ["slipage"])).toEqual([]);
  });

  it("knows every field the OpenAPI document gives each execution body", async () => {
    const t = await buildTestApp();
    try {
      const doc = t.app.swagger() as {
        paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }>;
      };
      for (const url of EXECUTION_KIND_LIST.map((k) => k.path)) {
        const schema = doc.paths[url]?.post?.requestBody?.content["application/json"]?.schema as {
          properties?: Record<string, unknown>;
        };
        const documented = Object.keys(schema.properties ?? {});
        expect(documented.length, url).toBeGreaterThan(0);
        const known = new Set(knownFields(url));
        for (const f of documented) expect(known.has(f), `${url} ${f}`).toBe(true);
        for (const f of ["priority_fee", "tip", "dry_run"]) expect(documented, url).toContain(f);
      }
    } finally {
      await t.close();
    }
  });

  it("documents warnings on every execution route's answer", async () => {
    const t = await buildTestApp();
    try {
      const doc = t.app.swagger() as {
        paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
      };
      for (const url of EXECUTION_KIND_LIST.map((k) => k.path)) {
        const ok = JSON.stringify(doc.paths[url]?.post?.responses["200"]);
        expect(ok, url).toContain('"warnings"');
      }
    } finally {
      await t.close();
    }
  });
});

// Issue 29 finding 14: `"dryRun": true` was ignored with a warning and the trade executed.
describe("misspeltSwitch", () => {
  const trade = "/v1/trades/execute";
  it.each([
    ["dryRun", "dry_run"],
    ["DRY_RUN", "dry_run"],
    ["dry-run", "dry_run"],
    ["dryrun", "dry_run"],
    ["DryRun", "dry_run"],
    ["Simulate", "simulate"],
    ["CONFIRM", "confirm"],
  ])("names %s as a misspelling of %s", (field, safetySwitch) => {
    expect(misspeltSwitch(trade, unknownFields(trade, { [field]: true }))).toEqual({ field, safetySwitch });
  });

  it("finds a nested one, ignores other unknown fields and switches the route does not read", () => {
    const bundle = "/v1/laser/bundle";
    expect(
      misspeltSwitch(bundle, unknownFields(bundle, { accounts: [{ type: "buy", dryRun: true }] })),
    ).toEqual({ field: "accounts[0].dryRun", safetySwitch: "dry_run" });
    expect(misspeltSwitch(trade, unknownFields(trade, { slipage: 1, dry_run: true }))).toBeUndefined();
    // The create endpoint has no `simulate` field: a misspelling of it is an ordinary unknown field.
    expect(misspeltSwitch("/v1/laser/create", ["Simulate"])).toBeUndefined();
    expect(misspeltSwitch("/v1/wallets", ["dryRun"])).toBeUndefined();
  });

  it("refuses the body with a 400 naming the right field, before the chain (none here) is needed", async () => {
    const t = await buildTestApp();
    try {
      const { apiKey } = await t.setup();
      const res = await t.app.inject({
        method: "POST",
        url: trade,
        headers: { "x-api-key": apiKey },
        payload: { action: "buy", mint: "x", amount: "1", dryRun: true },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "http.misspelt_switch",
        detail: REQUEST_FEES.misspeltSwitch("dryRun", "dry_run"),
      });
      expect(res.json<{ detail: string }>().detail).toContain('send "dry_run"');
    } finally {
      await t.close();
    }
  });
});

describe("STRICT_FIELDS=true", () => {
  it("refuses an unknown field of an execution body with a 400 naming it, before anything else", async () => {
    const t = await buildTestApp({ env: { STRICT_FIELDS: "true" } });
    try {
      const { apiKey } = await t.setup();
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/trades/execute",
        headers: { "x-api-key": apiKey },
        payload: { action: "buy", mint: "x", amount: "1", slipage: 1 },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "http.unknown_field",
        detail: 'unknown field "slipage" (STRICT_FIELDS=true refuses unknown fields)',
      });
      // Known fields pass the check (this app has no chain: the route's own 503 follows).
      const ok = await t.app.inject({
        method: "POST",
        url: "/v1/trades/execute",
        headers: { "x-api-key": apiKey },
        payload: { action: "buy", mint: "x", amount: "1", slippage: 1 },
      });
      expect(ok.statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });

  it("without it the same body is not refused for the field", async () => {
    const t = await buildTestApp();
    try {
      const { apiKey } = await t.setup();
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/trades/execute",
        headers: { "x-api-key": apiKey },
        payload: { action: "buy", mint: "x", amount: "1", slipage: 1 },
      });
      expect(res.statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});
