/**
 * Issue 19: a wallet-bound sub-key reads only its own wallets' executions — GET /v1/executions (paging and
 * cursors exact: filtered in the query), GET /v1/executions/{id} (404 for another wallet's, the same body as
 * an unknown id), GET /v1/events (JSON page and SSE) — on SQLite and PostgreSQL; GET /v1/activity needs the
 * `keys` scope.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { EVENTS } from "../../src/core/errors.js";
import { recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";
import { openSse, type SseReader } from "./sse-reader.js";

const engines = [
  { name: "sqlite", url: undefined as string | undefined },
  ...(TEST_DATABASE_URL !== undefined ? [{ name: "postgres", url: TEST_DATABASE_URL }] : []),
];

describe.each(engines)("wallet-bound reads ($name)", ({ url }) => {
  let app: FastifyInstance;
  let store: Store;
  let base: string;
  const vault = testVault();
  const schema = freshSchemaName("wbr");
  const readers: SseReader[] = [];
  beforeAll(async () => {
    store = await openStore(
      url ?? "sqlite::memory:",
      "./data",
      url !== undefined ? { pgSchema: schema } : {},
    );
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
    if (url !== undefined) await dropSchema(url, schema);
  });

  /** Root key, its default wallet A, a second wallet B, and a read-only sub-key bound to B. */
  async function account(): Promise<{ root: string; keyId: number; a: string; b: string; bound: string }> {
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const body = res.json<{ api_key: string; wallet_public_key: string }>();
    const key = await store.findApiKeyByHash(vault.hashApiKey(body.api_key));
    const created = await callWith(app, body.api_key, "POST", "/v1/wallets", {});
    const b = created.body.public_key as string;
    const bound = await createSubKey(app, body.api_key, { name: "b-only", scopes: ["read"], wallets: [b] });
    return { root: body.api_key, keyId: key!.id, a: body.wallet_public_key, b, bound: bound.apiKey };
  }

  // History orders by created_at (milliseconds), then by the random id: two rows in one millisecond would come
  // back in either order, so each row waits for the next millisecond and the test's own order is the store's.
  const nextMillisecond = async (): Promise<void> => {
    const start = Date.now();
    while (Date.now() === start) await new Promise((r) => setImmediate(r));
  };
  const execution = async (keyId: number, wallets: string[]): Promise<string> =>
    nextMillisecond().then(() =>
      recordPending(store, {
        apiKeyId: keyId,
        kind: wallets.length > 1 ? "bundle" : "trade",
        wallet: wallets[0]!,
        wallets,
        signatures: ["sig"],
        request: {},
        lastValidBlockHeight: 1000,
      }),
    );

  it("GET /v1/executions lists only the bound wallets' executions, page by page", async () => {
    const { root, keyId, a, b, bound } = await account();
    // Interleaved so that filtering after paging would return short or empty pages.
    const ownIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      await execution(keyId, [a]);
      ownIds.push(await execution(keyId, [b]));
      await execution(keyId, [b, a]); // a bundle that also signed with A: not B's alone
      await execution(keyId, [a]);
    }
    const all = await callWith(app, root, "GET", "/v1/executions?limit=200");
    expect((all.body.executions as unknown[]).length).toBe(12);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const q: string = cursor === null ? "" : `&after=${encodeURIComponent(cursor)}`;
      const r = await callWith(app, bound, "GET", `/v1/executions?limit=1${q}`);
      expect(r.status).toBe(200);
      const rows = r.body.executions as { id: string; wallets: string[] }[];
      for (const row of rows) expect(row.wallets).toEqual([b]);
      seen.push(...rows.map((x) => x.id));
      cursor = r.body.next_cursor as string | null;
      if (cursor === null) break;
    }
    expect(seen).toEqual([...ownIds].reverse());
    // Offset paging too, and a wallet filter naming A matches nothing.
    const second = await callWith(app, bound, "GET", "/v1/executions?limit=1&offset=1");
    expect((second.body.executions as { id: string }[]).map((x) => x.id)).toEqual([ownIds[1]]);
    const other = await callWith(app, bound, "GET", `/v1/executions?wallet=${a}`);
    expect(other.body.executions).toEqual([]);
  });

  it("GET /v1/executions/{id}: another wallet's execution is 404 like an unknown id", async () => {
    const { root, keyId, a, b, bound } = await account();
    const onA = await execution(keyId, [a]);
    const onB = await execution(keyId, [b]);
    const both = await execution(keyId, [b, a]);
    expect((await callWith(app, bound, "GET", `/v1/executions/${onB}`)).status).toBe(200);
    const unknown = await callWith(app, bound, "GET", "/v1/executions/00000000-0000-0000-0000-000000000000");
    expect(unknown).toEqual({
      status: 404,
      body: { detail: EVENTS.executionNotFound, code: "events.execution_not_found" },
    });
    for (const id of [onA, both]) {
      expect(await callWith(app, bound, "GET", `/v1/executions/${id}`)).toEqual(unknown);
      expect(await callWith(app, bound, "GET", `/v1/executions/${id}?wait=1`)).toEqual(unknown);
      expect((await callWith(app, root, "GET", `/v1/executions/${id}`)).status).toBe(200);
    }
  });

  it("GET /v1/events: the JSON page and the SSE stream carry only the bound wallets' events", async () => {
    const { root, keyId, a, b, bound } = await account();
    const onA = await execution(keyId, [a]);
    const onB = await execution(keyId, [b]);
    await execution(keyId, [b, a]);
    const page = await app.inject({
      method: "GET",
      url: "/v1/events?after=0&limit=1000",
      headers: { "x-api-key": bound, accept: "application/json" },
    });
    expect(page.statusCode).toBe(200);
    const events = page.json<{ events: { execution_id: string }[] }>().events;
    expect(events.map((e) => e.execution_id)).toEqual([onB]);
    const rootPage = await app.inject({
      method: "GET",
      url: "/v1/events?after=0&limit=1000",
      headers: { "x-api-key": root, accept: "application/json" },
    });
    expect(rootPage.json<{ events: unknown[] }>().events.length).toBe(3);
    expect(onA).not.toBe(onB);

    const s = await openSse(`${base}/v1/events`, { "x-api-key": bound });
    readers.push(s);
    expect(s.status).toBe(200);
    await s.waitForComment((c) => c.includes("connected"));
    await execution(keyId, [a]);
    await execution(keyId, [a, b]);
    const later = await execution(keyId, [b]);
    // Events arrive in id order: had A's been sent, they would come before B's.
    const got = await s.waitForMessages(1);
    expect(got.map((m) => (JSON.parse(m.data) as { execution_id: string }).execution_id)).toEqual([later]);
    expect(s.messages).toHaveLength(1);
  });

  it("GET /v1/activity needs the keys scope (a read-only key gets 403 scope)", async () => {
    const { root, bound } = await account();
    const r = await callWith(app, bound, "GET", "/v1/activity");
    expectRefusal(r, 403, "scope", "activity");
    expect(r.body.detail).toBe('API key lacks the "keys" scope');
    const auditor = await createSubKey(app, root, { name: "auditor", scopes: ["keys"] });
    expect((await callWith(app, auditor.apiKey, "GET", "/v1/activity")).status).toBe(200);
  });
});
