/** GET /v1/events: SSE stream (resume, filters, heartbeat, gap) and the JSON page, on SQLite and PostgreSQL. */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { EVENTS } from "../../src/core/errors.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { expectAuthRequired } from "../helpers/security.js";
import { openSse, type SseReader } from "./sse-reader.js";

function suite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`GET /v1/events on ${name}`, () => {
    let app: FastifyInstance;
    let store: Store;
    let base: string;
    const vault = testVault();
    const readers: SseReader[] = [];
    beforeAll(async () => {
      store = await open();
      app = await buildApp({
        config: loadConfig({}),
        store,
        vault,
        clock: () => new Date(),
        rateLimiter: storeRateLimiter(store),
        events: { heartbeatMs: 200, pollMs: 500 },
      });
      base = await app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      readers.forEach((r) => r.close());
      await app?.close();
      await store?.close();
      await cleanup();
    });

    async function setup(): Promise<{ apiKey: string; wallet: string; keyId: number }> {
      const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
      const body = res.json<{ api_key: string; wallet_public_key: string }>();
      const key = await store.findApiKeyByHash(vault.hashApiKey(body.api_key));
      return { apiKey: body.api_key, wallet: body.wallet_public_key, keyId: key!.id };
    }

    async function execution(
      keyId: number,
      wallet: string,
      kind: "trade" | "split" = "trade",
    ): Promise<string> {
      return recordPending(store, {
        apiKeyId: keyId,
        kind,
        wallet,
        signatures: ["sig"],
        request: {},
        lastValidBlockHeight: 1000,
      });
    }

    async function sse(apiKey: string, query = "", headers: Record<string, string> = {}): Promise<SseReader> {
      const r = await openSse(`${base}/v1/events${query}`, { "x-api-key": apiKey, ...headers });
      readers.push(r);
      return r;
    }

    const data = (m: { data: string }) =>
      JSON.parse(m.data) as { id: number; type: string; execution_id: string };

    it("streams new events only, each with its id; a reconnect with Last-Event-ID gets exactly the missed ones", async () => {
      const a = await setup();
      await execution(a.keyId, a.wallet); // before the stream: not sent
      const s = await sse(a.apiKey);
      expect(s.status).toBe(200);
      await s.waitForComment((c) => c.includes("connected"));
      const id = await execution(a.keyId, a.wallet);
      await recordOutcome(store, id, { status: "confirmed", confirmationStatus: "confirmed" });
      const got = await s.waitForMessages(2);
      expect(got.map((m) => [m.id, data(m).type, data(m).execution_id])).toEqual([
        ["2", "execution.pending", id],
        ["3", "execution.confirmed", id],
      ]);
      s.close();
      // Missed while disconnected.
      const id2 = await execution(a.keyId, a.wallet);
      await recordOutcome(store, id2, { status: "failed", confirmationStatus: null, error: { detail: "x" } });
      const again = await sse(a.apiKey, "?after=1", { "last-event-id": "3" });
      const missed = await again.waitForMessages(2);
      expect(missed.map((m) => m.id)).toEqual(["4", "5"]);
      await execution(a.keyId, a.wallet);
      await again.waitForMessages(3);
      // Nothing twice: give the poll a chance to resend, then check.
      await again.waitForComment((c) => c.includes("heartbeat"));
      expect(again.messages.map((m) => m.id)).toEqual(["4", "5", "6"]);
    });

    it("?after= resumes too, and filters by types, kind and wallet", async () => {
      const a = await setup();
      const t1 = await execution(a.keyId, a.wallet);
      await execution(a.keyId, a.wallet, "split");
      await recordOutcome(store, t1, { status: "confirmed", confirmationStatus: "confirmed" });
      const all = await sse(a.apiKey, "?after=0");
      expect((await all.waitForMessages(3)).map((m) => m.id)).toEqual(["1", "2", "3"]);
      const confirmed = await sse(a.apiKey, "?after=0&types=execution.confirmed,execution.failed");
      expect((await confirmed.waitForMessages(1)).map((m) => data(m).type)).toEqual(["execution.confirmed"]);
      const split = await sse(a.apiKey, "?after=0&kind=split");
      expect((await split.waitForMessages(1)).map((m) => m.id)).toEqual(["2"]);
      const other = await setup();
      const byWallet = await sse(a.apiKey, `?after=0&wallet=${other.wallet}`);
      await byWallet.waitForComment((c) => c.includes("heartbeat"));
      expect(byWallet.messages).toEqual([]);
      // Another key's events never reach this stream.
      await execution(other.keyId, other.wallet);
      await all.waitForComment((c) => c.includes("heartbeat"));
      expect(all.messages.length).toBe(3);
    });

    it("sends a heartbeat comment", async () => {
      const a = await setup();
      const s = await sse(a.apiKey);
      await s.waitForComment((c) => c.includes("heartbeat"));
    });

    it("a cursor older than the retention gets `event: gap` first, then everything retained", async () => {
      const a = await setup();
      const id = await execution(a.keyId, a.wallet);
      await store.purgeEvents("9999-01-01T00:00:00.000");
      await recordOutcome(store, id, { status: "expired", confirmationStatus: null });
      const s = await sse(a.apiKey, "?after=0");
      const [gap, next] = await s.waitForMessages(2);
      expect(gap!.event).toBe("gap");
      expect(JSON.parse(gap!.data)).toEqual({ after: "0", oldest_retained: 2 });
      expect(next!.id).toBe("2");
      const page = await app.inject({
        method: "GET",
        url: "/v1/events?after=0",
        headers: { "x-api-key": a.apiKey, accept: "application/json" },
      });
      expect(page.json()).toMatchObject({ gap: true, next_cursor: "2" });
    });

    it("400 on a malformed cursor, limit or filter", async () => {
      const a = await setup();
      const bad = async (url: string, headers: Record<string, string> = {}) =>
        app.inject({ method: "GET", url, headers: { "x-api-key": a.apiKey, ...headers } });
      for (const q of ["?after=abc", "?after=-1", "?after=1.5", "?after=9999999999999999"]) {
        const r = await bad(`/v1/events${q}`);
        expect(r.statusCode, q).toBe(400);
        expect(r.json()).toEqual({ code: "events.event_cursor_invalid", detail: EVENTS.eventCursorInvalid });
      }
      expect((await bad("/v1/events", { "last-event-id": "x" })).json()).toEqual({
        detail: EVENTS.eventCursorInvalid,
        code: "events.event_cursor_invalid",
      });
      const json = { accept: "application/json" };
      expect((await bad("/v1/events?limit=1001", json)).json()).toEqual({
        detail: EVENTS.eventLimitInvalid,
        code: "events.event_limit_invalid",
      });
      expect((await bad("/v1/events?limit=0", json)).statusCode).toBe(400);
      expect((await bad("/v1/events?types=nope", json)).json()).toEqual({
        detail: EVENTS.typesInvalid,
        code: "events.types_invalid",
      });
      expect((await bad("/v1/events?kind=nope", json)).json()).toEqual({
        detail: EVENTS.kindInvalid("trade, claim, consolidate, transfer, split, create, bundle"),
        code: "execution.history_kind",
        allowed: ["trade", "claim", "consolidate", "transfer", "split", "create", "bundle"],
      });
      expect((await bad("/v1/events?wallet=nope", json)).statusCode).toBe(400);
    });

    it("pages as JSON: from the oldest retained, ascending, default 100, next_cursor", async () => {
      const a = await setup();
      for (let i = 0; i < 105; i++) await execution(a.keyId, a.wallet);
      const get = (q: string) =>
        app.inject({
          method: "GET",
          url: `/v1/events${q}`,
          headers: { "x-api-key": a.apiKey, accept: "application/json" },
        });
      const p1 = (await get("")).json<{ events: { id: number }[]; next_cursor: string; gap: boolean }>();
      expect(p1.events.length).toBe(100);
      expect(p1.events[0]!.id).toBe(1);
      expect(p1.next_cursor).toBe("100");
      expect(p1.gap).toBe(false);
      const p2 = (await get(`?after=${p1.next_cursor}`)).json<{
        events: { id: number }[];
        next_cursor: string;
      }>();
      expect(p2.events.map((e) => e.id)).toEqual([101, 102, 103, 104, 105]);
      const p3 = (await get(`?after=${p2.next_cursor}&limit=1000`)).json<{
        events: unknown[];
        next_cursor: string;
      }>();
      expect(p3).toEqual({ events: [], next_cursor: "105", gap: false });
      const typed = (await get("?types=execution.confirmed")).json<{
        events: unknown[];
        next_cursor: string;
      }>();
      // Nothing matched, but the cursor moves past what was read.
      expect(typed).toEqual({ events: [], next_cursor: "105", gap: false });
    });

    it("refuses missing and unknown keys", async () => {
      await expectAuthRequired(app, "GET", "/v1/events");
    });
  });
}

const schema = freshSchemaName("evroute");
suite(
  "sqlite",
  () => openStore("sqlite::memory:", "./data"),
  async () => {},
);
if (TEST_DATABASE_URL !== undefined) {
  const url = TEST_DATABASE_URL;
  suite(
    "postgres",
    () => openStore(url, "./data", { pgSchema: schema }),
    () => dropSchema(url, schema),
  );
}
