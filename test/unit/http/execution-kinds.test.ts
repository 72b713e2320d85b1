/**
 * Issue 30, "done when": an execution kind is one descriptor plus one line in the list handed to the app. A
 * throwaway kind shows up in the routes, the OpenAPI document, the known fields and the policy step; a kind
 * without a spend plan stops the start-up (deny by default).
 */
import { describe, expect, it } from "vitest";
import { EXECUTION_KIND_LIST } from "../../../src/domain/kinds.js";
import { checkKinds, recordedKinds, type ExecutionKindEntry } from "../../../src/domain/execution/kind.js";
import { knownFieldsTable } from "../../../src/http/execute/known-fields.js";
import { buildTestApp } from "../../helpers/app.js";
import { callWith, createSubKey } from "../../helpers/security.js";
import { noopKind } from "./fixtures/throwaway-kind.js";

const MINT = "So11111111111111111111111111111111111111112";
const kinds = [...EXECUTION_KIND_LIST, noopKind];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

describe("a throwaway execution kind registered by one line", () => {
  it("is in the routes, the OpenAPI document (body, example, answer, scope) and the known fields", async () => {
    const t = await buildTestApp({ kinds, env: { STRICT_FIELDS: "true" } });
    try {
      expect(t.app.hasRoute({ method: "POST", url: "/v1/noop/execute" })).toBe(true);
      const doc = t.app.swagger() as Json;
      const op = doc.paths["/v1/noop/execute"].post as Json;
      const body = op.requestBody.content["application/json"];
      expect(Object.keys(body.schema.properties)).toEqual(
        expect.arrayContaining(["mint", "lamports", "dry_run", "priority_fee", "tip"]),
      );
      expect(body.schema.properties.mint.pattern).toBeDefined();
      expect(body.schema.required).toEqual(["mint"]);
      expect(Object.keys(body.examples)).toEqual(["one"]);
      expect(op.tags).toEqual(["noop"]);
      expect(op["x-required-scope"]).toBe("trade");
      expect(JSON.stringify(op.responses["200"])).toContain('"warnings"');
      const known = knownFieldsTable(kinds).knownFields("/v1/noop/execute");
      expect(known).toEqual(expect.arrayContaining(["mint", "token_mint", "lamports", "dry_run"]));
      // The app's own known fields: an alias passes, a field nobody reads is refused (STRICT_FIELDS).
      const { apiKey } = await t.setup();
      const typo = await callWith(t.app, apiKey, "POST", "/v1/noop/execute", { mint: MINT, lamprts: 1 });
      expect(typo.status).toBe(400);
      expect(typo.body.detail).toMatch(/lamprts/);
      const alias = await callWith(t.app, apiKey, "POST", "/v1/noop/execute", { token_mint: MINT });
      // Past the known fields and the policy step: no chain in this app, so the run's 503.
      expect(alias.status).toBe(503);
    } finally {
      await t.close();
    }
  });

  it("goes through the policy step: its spend plan is judged by the key's policy before anything runs", async () => {
    const t = await buildTestApp({ kinds });
    try {
      const { apiKey: root } = await t.setup();
      const bot = await createSubKey(t.app, root, { name: "bot", scopes: ["trade"] });
      await callWith(t.app, root, "PUT", `/v1/keys/${bot.id}/policy`, {
        mints_deny: [MINT],
        max_sol_per_execution: "1",
      });
      const denied = await callWith(t.app, bot.apiKey, "POST", "/v1/noop/execute", { mint: MINT });
      expect(denied.status).toBe(403);
      expect(denied.body.rule).toBe("mints_deny");
      await callWith(t.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { max_sol_per_execution: "1" });
      const big = await callWith(t.app, bot.apiKey, "POST", "/v1/noop/execute", {
        mint: MINT,
        lamports: "2000000000",
      });
      expect(big.status).toBe(403);
      expect(big.body.rule).toBe("max_sol_per_execution");
      expect(big.body.detail).toBe(
        "policy max_sol_per_execution: this noop needs 2.00, at most 1 SOL per execution",
      );
    } finally {
      await t.close();
    }
  });

  it("without a spend plan, refuses to start (deny by default)", async () => {
    const planless = { ...noopKind, plan: undefined } as unknown as ExecutionKindEntry;
    expect(() => checkKinds([...EXECUTION_KIND_LIST, planless])).toThrow(
      'execution kind "noop" (/v1/noop/execute) has no spend plan: refused (deny by default)',
    );
    await expect(buildTestApp({ kinds: [...EXECUTION_KIND_LIST, planless] })).rejects.toThrow(
      /no spend plan/,
    );
  });

  it("is a kind the history and events filters accept, their allowed values and the document's enums", async () => {
    // A kind records its own word unless it says otherwise (a build records nothing; a send records a trade).
    expect(recordedKinds(kinds)).toEqual([
      "trade",
      "claim",
      "consolidate",
      "transfer",
      "split",
      "create",
      "bundle",
      "noop",
    ]);
    const t = await buildTestApp({ kinds });
    try {
      const { apiKey } = await t.setup();
      // The JSON form of the events (not the stream).
      const get = (url: string) =>
        t.app.inject({ method: "GET", url, headers: { "x-api-key": apiKey, accept: "application/json" } });
      for (const path of ["/v1/executions", "/v1/events"]) {
        expect((await get(`${path}?kind=noop`)).statusCode).toBe(200);
        const typo = await get(`${path}?kind=nop`);
        expect(typo.statusCode).toBe(400);
        expect(typo.json().allowed).toEqual(recordedKinds(kinds));
        expect(typo.json().detail).toMatch(/, bundle, noop$/);
      }
      const doc = t.app.swagger() as Json;
      const kindParam = (path: string) =>
        (doc.paths[path].get.parameters as Json[]).find((p) => p.name === "kind")!.schema;
      expect(kindParam("/v1/executions").enum).toContain("noop");
      expect(kindParam("/v1/events").enum).toContain("noop");
      expect(doc.components.schemas.Execution.properties.kind.enum).toContain("noop");
    } finally {
      await t.close();
    }
  });

  it("every kind of the service's list has a spend plan and its own path", () => {
    expect(() => checkKinds(EXECUTION_KIND_LIST)).not.toThrow();
    expect(() => checkKinds([...EXECUTION_KIND_LIST, EXECUTION_KIND_LIST[0]!])).toThrow(
      /two execution kinds/,
    );
  });
});
