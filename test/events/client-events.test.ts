/** The typed client: events() resumes after a dropped connection (each event once, in order); waitFor(); webhooks. */
import { LaserTrade, type ExecutionEvent } from "@lasertrade/client";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import type { Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { listeningApp, type ListeningApp } from "../helpers/listening-app.js";

describe("client events() and waitFor()", () => {
  let app: FastifyInstance;
  let store: Store;
  let base: string;
  let running: ListeningApp | undefined;
  const vault = testVault();
  beforeAll(async () => {
    running = await listeningApp(vault, { events: { heartbeatMs: 200, pollMs: 300 } });
    ({ app, store, base } = running);
  });
  afterAll(async () => running?.close());

  async function key(): Promise<{ client: LaserTrade; keyId: number; wallet: string }> {
    // Through inject with a fresh address: setup is rate-limited per client address.
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const { api_key, wallet_public_key } = res.json<{ api_key: string; wallet_public_key: string }>();
    const client = new LaserTrade({ baseUrl: base, apiKey: api_key });
    const k = await store.findApiKeyByHash(vault.hashApiKey(api_key));
    return { client, keyId: k!.id, wallet: wallet_public_key };
  }
  const execution = (keyId: number, wallet: string) =>
    recordPending(store, {
      apiKeyId: keyId,
      kind: "trade",
      wallet,
      signatures: ["s"],
      request: {},
      lastValidBlockHeight: 1,
    });

  it("events() yields every event once, in order, across a dropped connection", async () => {
    const { client, keyId, wallet } = await key();
    const abort = new AbortController();
    const got: ExecutionEvent[] = [];
    const reading = (async () => {
      for await (const e of client.events({ after: 0 }, { signal: abort.signal, reconnectDelayMs: 100 })) {
        got.push(e);
        if (got.length === 6) break;
      }
    })();
    const waitUntil = async (n: number) => {
      for (let i = 0; i < 200 && got.length < n; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const a = await execution(keyId, wallet);
    await recordOutcome(store, a, { status: "submitted", confirmationStatus: null });
    await waitUntil(2);
    // The server drops every connection; the iterator reconnects with Last-Event-ID.
    app.server.closeAllConnections();
    await recordOutcome(store, a, { status: "confirmed", confirmationStatus: "confirmed" });
    const b = await execution(keyId, wallet);
    await recordOutcome(store, b, { status: "failed", confirmationStatus: null, error: { detail: "x" } });
    await execution(keyId, wallet);
    await reading;
    abort.abort();
    expect(got.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(got.map((e) => e.type)).toEqual([
      "execution.pending",
      "execution.submitted",
      "execution.confirmed",
      "execution.pending",
      "execution.failed",
      "execution.pending",
    ]);
  });

  it("events() throws the server's 400 for a bad cursor instead of reconnecting", async () => {
    const { client } = await key();
    await expect(client.events({ after: "nope" }).next()).rejects.toMatchObject({ status: 400 });
  });

  it("waitFor() returns once the execution is final", async () => {
    const { client, keyId, wallet } = await key();
    const id = await execution(keyId, wallet);
    const waiting = client.waitFor(id, { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 200));
    await recordOutcome(store, id, { status: "finalized", confirmationStatus: "finalized" });
    expect((await waiting).status).toBe("finalized");
    // A wait that ends first returns the record as it is.
    const open = await execution(keyId, wallet);
    expect((await client.waitFor(open, { timeoutMs: 1_000 })).status).toBe("pending");
  });

  it("manages webhooks", async () => {
    const { client } = await key();
    const created = await client.webhooks.create({ url: "https://example.com/h", types: ["*"] });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.list()).webhooks.map((w) => w.id)).toEqual([created.id]);
    const test = await client.webhooks.test(created.id);
    expect(test.type).toBe("webhook.test");
    expect((await client.webhooks.deliveries(created.id)).deliveries[0]!.id).toBe(test.id);
    expect((await client.webhooks.retry(created.id, test.id)).message_id).toBe(test.message_id);
    await client.webhooks.delete(created.id);
    expect((await client.webhooks.list()).webhooks).toEqual([]);
  });

  it("pages webhooks (issue 29): page() reads the Link header, iterate() and listAll() follow it", async () => {
    const { client } = await key();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await client.webhooks.create({ url: `https://example.com/${i}`, types: ["*"] })).id);
    const first = await client.webhooks.page({ limit: 2 });
    expect(first.webhooks.map((w) => w.id)).toEqual(ids.slice(0, 2));
    expect(first.next_after).toBe(ids[1]);
    const last = await client.webhooks.page({ limit: 2, after: ids[3]! });
    expect(last).toEqual({ webhooks: [expect.objectContaining({ id: ids[4] })], next_after: null });
    const seen: string[] = [];
    for await (const w of client.webhooks.iterate({ pageSize: 2 })) seen.push(w.id);
    expect(seen).toEqual(ids);
    expect((await client.webhooks.listAll({ pageSize: 3 })).map((w) => w.id)).toEqual(ids);
  });
});
