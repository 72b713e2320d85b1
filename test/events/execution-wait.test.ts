/** GET /v1/executions/{id} (?wait= long-poll) and cursor paging of GET /v1/executions, on SQLite and PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS } from "../../src/core/errors.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { expectAuthRequired } from "../helpers/security.js";

function suite(
  name: string,
  options: () => Parameters<typeof buildTestApp>[0],
  cleanup: () => Promise<void>,
): void {
  describe(`executions by id and cursor on ${name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(options());
    });
    afterAll(async () => {
      await t?.close();
      await cleanup();
    });

    async function keyIdOf(apiKey: string): Promise<number> {
      const key = await t.store.findApiKeyByHash(t.vault.hashApiKey(apiKey));
      if (!key) throw new Error("key not found");
      return key.id;
    }

    async function pending(apiKey: string, wallet: string): Promise<string> {
      return recordPending(t.store, {
        apiKeyId: await keyIdOf(apiKey),
        kind: "trade",
        wallet,
        signatures: ["sig"],
        request: {},
        lastValidBlockHeight: 1000,
      });
    }

    it("returns one execution of the key; 404 for another key's or an unknown id; 400 on a bad wait", async () => {
      const a = await t.setup();
      const b = await t.setup();
      const id = await pending(a.apiKey, a.wallet);
      const get = (key: string, url: string) =>
        t.app.inject({ method: "GET", url, headers: { "x-api-key": key } });
      const res = await get(a.apiKey, `/v1/executions/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, status: "pending", kind: "trade", wallet: a.wallet });
      expect((await get(b.apiKey, `/v1/executions/${id}`)).json()).toEqual({
        code: "events.execution_not_found",
        detail: EVENTS.executionNotFound,
      });
      expect((await get(a.apiKey, `/v1/executions/nope`)).statusCode).toBe(404);
      for (const bad of ["61", "-1", "abc", "1.5"]) {
        const r = await get(a.apiKey, `/v1/executions/${id}?wait=${bad}`);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toEqual({ detail: EVENTS.waitInvalid, code: "events.wait_invalid" });
      }
    });

    it("?wait= returns as soon as the execution is final", async () => {
      const a = await t.setup();
      const id = await pending(a.apiKey, a.wallet);
      const waiting = t.app.inject({
        method: "GET",
        url: `/v1/executions/${id}?wait=60`,
        headers: { "x-api-key": a.apiKey },
      });
      let answered = false;
      void waiting.then(() => (answered = true));
      await new Promise((r) => setTimeout(r, 200));
      // Not final yet: submitted is an open status.
      await recordOutcome(t.store, id, { status: "submitted", confirmationStatus: null });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      await recordOutcome(t.store, id, { status: "confirmed", confirmationStatus: "confirmed" });
      const res = await waiting;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, status: "confirmed" });
    });

    it("?wait= returns the current record when the wait ends", async () => {
      const a = await t.setup();
      const id = await pending(a.apiKey, a.wallet);
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/executions/${id}?wait=1`,
        headers: { "x-api-key": a.apiKey },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, status: "pending" });
    });

    it("pages GET /v1/executions by cursor, newest first, stable while new records arrive", async () => {
      const a = await t.setup();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await pending(a.apiKey, a.wallet));
        await new Promise((r) => setTimeout(r, 3));
      }
      const list = (q: string) =>
        t.app.inject({ method: "GET", url: `/v1/executions${q}`, headers: { "x-api-key": a.apiKey } });
      const p1 = (await list("?limit=2")).json<{
        executions: { id: string }[];
        next_cursor: string | null;
      }>();
      expect(p1.executions.map((e) => e.id)).toEqual([ids[4], ids[3]]);
      // A new record does not shift the next page (it would with offset).
      await pending(a.apiKey, a.wallet);
      const p2 = (await list(`?limit=2&after=${p1.next_cursor}`)).json<{
        executions: { id: string }[];
        next_cursor: string | null;
      }>();
      expect(p2.executions.map((e) => e.id)).toEqual([ids[2], ids[1]]);
      const p3 = (await list(`?limit=2&after=${p2.next_cursor}`)).json<{
        executions: { id: string }[];
        next_cursor: string | null;
      }>();
      expect(p3.executions.map((e) => e.id)).toEqual([ids[0]]);
      expect(p3.next_cursor).toBeNull();
      for (const bad of ["!!", "bm9wZQ", "x".repeat(300)]) {
        const r = await list(`?after=${bad}`);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toEqual({ code: "events.cursor_invalid", detail: EVENTS.cursorInvalid });
      }
    });

    it("refuses missing and unknown keys", async () => {
      await expectAuthRequired(t.app, "GET", "/v1/executions/00000000-0000-0000-0000-000000000000");
    });
  });
}

suite(
  "sqlite",
  () => ({}),
  async () => {},
);
if (TEST_DATABASE_URL !== undefined) {
  const url = TEST_DATABASE_URL;
  const schema = freshSchemaName("evwait");
  suite(
    "postgres",
    () => ({ databaseUrl: url, pgSchema: schema }),
    () => dropSchema(url, schema),
  );
}
