/**
 * Issue 29, streams (findings 2, 3, 13, 17): probes as an attacker would run them against the app listening on a
 * port. Open WebSocket and SSE streams end when their key is revoked, expires or is frozen (or the account is);
 * connections are capped per key and per IP; an auth message with an unknown key counts on the IP's invalid-key
 * allowance; a frame over 64 KiB logs no stack. Each probe also checks that nothing moved on chain.
 */
import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startLocalnet, type LocalnetHandle } from "../../localnet/index.js";
import { LAMPORTS_PER_SOL } from "../../src/core/amounts.js";
import { MarketHub } from "../../src/domain/market/market-hub.js";
import { createLogger } from "../../src/runtime/logger.js";
import { openSse, type SseReader } from "../events/sse-reader.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { Client } from "../helpers/stream-e2e.js";

let localnet: LocalnetHandle;
let rpc: Connection;

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 });
  rpc = new Connection(localnet.rpcUrl, "processed");
});
afterAll(async () => {
  await localnet?.close();
});

interface Listening {
  t: TestApp;
  http: string;
  ws: string;
  lines: string[];
}

async function listening(env: Record<string, string> = {}, clock?: () => Date): Promise<Listening> {
  const lines: string[] = [];
  const logger = createLogger("info", {
    write: (chunk: string | Buffer) => {
      lines.push(chunk.toString());
      return true;
    },
  } as unknown as NodeJS.WritableStream);
  const t = await buildTestApp({
    env,
    logger,
    ...(clock !== undefined ? { clock } : {}),
    // A connection closed 4429 is paused (its close answer unread) and cut after this grace: 2 s in the service,
    // which each such close in these probes waited; the close codes are the same.
    market: { hub: new MarketHub(), closeGraceMs: 100 },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const addr = t.app.server.address();
  if (addr === null || typeof addr === "string") throw new Error("no port");
  return { t, http: `http://127.0.0.1:${addr.port}`, ws: `ws://127.0.0.1:${addr.port}/v1/stream`, lines };
}

/** A WebSocket client; resolves once open, or with the status of a refused upgrade. */
async function connect(l: Listening, headers: Record<string, string> = {}): Promise<Client | number> {
  const ws = new WebSocket(l.ws, { headers });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(new Client(ws)));
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("error", reject);
  });
}

async function open(l: Listening, headers: Record<string, string> = {}): Promise<Client> {
  const c = await connect(l, headers);
  if (typeof c === "number") throw new Error(`upgrade refused: ${c}`);
  return c;
}

/** A key of its own account with a funded wallet; the wallet's balance is read before and after each probe. */
async function funded(
  l: Listening,
): Promise<{ apiKey: string; wallet: string; balance: () => Promise<number> }> {
  const { apiKey, wallet } = await l.t.setup();
  localnet.admin.fund(wallet, 2n * LAMPORTS_PER_SOL);
  return { apiKey, wallet, balance: () => rpc.getBalance(new PublicKey(wallet)) };
}

async function subKey(
  l: Listening,
  rootKey: string,
  body: Record<string, unknown> = {},
): Promise<{ id: number; api_key: string }> {
  const res = await l.t.app.inject({
    method: "POST",
    url: "/v1/keys",
    headers: { "x-api-key": rootKey, "content-type": "application/json" },
    payload: JSON.stringify({ name: "reader", scopes: ["read"], ...body }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function call(l: Listening, key: string, method: "POST" | "DELETE", url: string): Promise<void> {
  const res = await l.t.app.inject({ method, url, headers: { "x-api-key": key } });
  expect(res.statusCode, res.body).toBe(200);
}

async function sse(l: Listening, key: string): Promise<SseReader> {
  const r = await openSse(`${l.http}/v1/events`, { "x-api-key": key });
  expect(r.status).toBe(200);
  await r.waitForComment((c) => c.includes("connected"));
  return r;
}

async function sseClosed(r: SseReader): Promise<{ code: number; reason: string }> {
  const [m] = await r.waitForMessages(1, 10_000);
  expect(m!.event).toBe("closed");
  return JSON.parse(m!.data) as { code: number; reason: string };
}

describe("issue 29: open streams end when their key stops authorizing them", () => {
  let l: Listening;
  beforeAll(async () => {
    l = await listening();
  });
  afterAll(async () => {
    await l?.t.close();
  });

  it("revoking a sub-key closes its WebSocket (4401, header and auth message) and its SSE stream; other keys stay", async () => {
    const root = await funded(l);
    const before = await root.balance();
    const sub = await subKey(l, root.apiKey);
    const byHeader = await open(l, { "x-api-key": sub.api_key });
    const byMessage = await open(l);
    byMessage.send({ method: "auth", api_key: sub.api_key });
    expect(await byMessage.next()).toEqual({ type: "authenticated" });
    const events = await sse(l, sub.api_key);
    const rootStream = await open(l, { "x-api-key": root.apiKey });

    await call(l, root.apiKey, "DELETE", `/v1/keys/${sub.id}`);
    expect(await byHeader.closed).toEqual({ code: 4401, reason: "API key revoked" });
    expect(await byMessage.closed).toEqual({ code: 4401, reason: "API key revoked" });
    expect(await sseClosed(events)).toEqual({ code: 4401, reason: "API key revoked" });
    // The root key's stream is untouched.
    rootStream.send({ method: "ping" });
    expect(await rootStream.next()).toEqual({ type: "pong" });
    rootStream.ws.close();
    events.close();
    expect(await root.balance()).toBe(before);
  });

  it("freezing a key closes its streams with 4403; freezing the account closes the root key's too", async () => {
    const root = await funded(l);
    const before = await root.balance();
    const sub = await subKey(l, root.apiKey);
    const subWs = await open(l, { "x-api-key": sub.api_key });
    const subSse = await sse(l, sub.api_key);
    await call(l, root.apiKey, "POST", `/v1/keys/${sub.id}/freeze`);
    expect(await subWs.closed).toEqual({ code: 4403, reason: "API key is frozen" });
    expect((await sseClosed(subSse)).code).toBe(4403);
    subSse.close();

    const rootWs = await open(l, { "x-api-key": root.apiKey });
    const rootSse = await sse(l, root.apiKey);
    await call(l, root.apiKey, "POST", "/v1/account/freeze");
    expect((await rootWs.closed).code).toBe(4403);
    expect((await sseClosed(rootSse)).code).toBe(4403);
    rootSse.close();
    // While frozen, a new stream is refused at once (the auth message closes 4403).
    const again = await open(l);
    again.send({ method: "auth", api_key: root.apiKey });
    expect((await again.closed).code).toBe(4403);
    await call(l, root.apiKey, "POST", "/v1/account/unfreeze");
    expect(await root.balance()).toBe(before);
  });

  it("a key's streams close at its expires_at (4401, no request needed)", async () => {
    const root = await funded(l);
    const before = await root.balance();
    // Enough time to open both streams first (a few ms each).
    const sub = await subKey(l, root.apiKey, { expires_at: new Date(Date.now() + 1_500).toISOString() });
    const ws = await open(l, { "x-api-key": sub.api_key });
    const events = await sse(l, sub.api_key);
    expect(await ws.closed).toEqual({ code: 4401, reason: "API key expired" });
    expect(await sseClosed(events)).toEqual({ code: 4401, reason: "API key expired" });
    events.close();
    expect(await root.balance()).toBe(before);
  });

  it("a frame over 64 KiB closes the connection (1009) and logs one warn line without a stack", async () => {
    const root = await funded(l);
    const c = await open(l, { "x-api-key": root.apiKey });
    c.ws.send("x".repeat(70 * 1024));
    expect((await c.closed).code).toBe(1009);
    await new Promise((r) => setTimeout(r, 50));
    const logged = l.lines.filter((s) => s.includes("stream socket error"));
    expect(logged).toHaveLength(1);
    const line = JSON.parse(logged[0]!) as Record<string, unknown>;
    expect(line.level).toBe(40);
    expect(JSON.stringify(line)).not.toMatch(/stack|\n\s+at /);
    expect(l.lines.filter((s) => /"level":50/.test(s) && /Max payload/i.test(s))).toEqual([]);
  });
});

describe("issue 29: connection caps per key and per IP", () => {
  let l: Listening;
  beforeAll(async () => {
    l = await listening({ STREAM_MAX_CONNECTIONS_PER_KEY: "2", STREAM_MAX_CONNECTIONS_PER_IP: "4" });
  });
  afterAll(async () => {
    await l?.t.close();
  });

  it("a key's third stream is refused: 429 at the upgrade and on SSE, 4429 after an auth message", async () => {
    const root = await funded(l);
    const before = await root.balance();
    const a = await open(l, { "x-api-key": root.apiKey });
    const b = await sse(l, root.apiKey);
    expect(await connect(l, { "x-api-key": root.apiKey })).toBe(429);
    const res = await fetch(`${l.http}/v1/events`, {
      headers: { "x-api-key": root.apiKey, accept: "text/event-stream" },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      detail: "too many open streams for this API key (at most 2); close one first",
      code: "stream.per_key",
    });
    const late = await open(l);
    late.send({ method: "auth", api_key: root.apiKey });
    expect((await late.closed).code).toBe(4429);
    // The JSON page of /v1/events is not a stream: not capped.
    const page = await l.t.app.inject({
      method: "GET",
      url: "/v1/events",
      headers: { "x-api-key": root.apiKey, accept: "application/json" },
    });
    expect(page.statusCode).toBe(200);
    a.ws.close();
    await a.closed;
    b.close();
    // A closed stream frees its slot (the server notices the close shortly after).
    let next: Client | number = 429;
    for (let i = 0; i < 100 && next === 429; i++) {
      next = await connect(l, { "x-api-key": root.apiKey });
      if (next === 429) await new Promise((r) => setTimeout(r, 20));
    }
    expect(next).toBeInstanceOf(Client);
    (next as Client).ws.close();
    await (next as Client).closed;
    expect(await root.balance()).toBe(before);
  });

  it("connections waiting for their auth message count against the IP's cap", async () => {
    const waiting: Client[] = [];
    // Other tests' streams may take a moment to be released: retry the first until a slot is free.
    for (let i = 0; i < 4; i++) {
      let c: Client | number = 429;
      for (let j = 0; j < 100 && c === 429; j++) {
        c = await connect(l);
        if (c === 429) await new Promise((r) => setTimeout(r, 20));
      }
      waiting.push(c as Client);
    }
    expect(await connect(l)).toBe(429);
    const root = await funded(l);
    const res = await fetch(`${l.http}/v1/events`, {
      headers: { "x-api-key": root.apiKey, accept: "text/event-stream" },
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      detail: "too many open streams from this address (at most 4); close one first",
      code: "stream.per_ip",
    });
    for (const c of waiting) c.ws.close();
  });
});

describe("issue 29: the WebSocket auth message counts as an invalid key", () => {
  let l: Listening;
  // The app's clock: the wall clock, moved ahead by the test below (never back).
  let aheadMs = 0;
  beforeAll(async () => {
    l = await listening({ AUTH_FAILURES_PER_MINUTE: "3" }, () => new Date(Date.now() + aheadMs));
  });
  afterAll(async () => {
    await l?.t.close();
  });

  const failures = async (): Promise<number> => {
    const text = await (await fetch(`${l.http}/metrics`)).text();
    const m = /^lasertrade_auth_failures_total (\d+)/m.exec(text);
    return m === null ? 0 : Number(m[1]);
  };

  it("unknown keys by auth message: 4401 within the allowance, then 4429 (one guess per connection, counted)", async () => {
    const root = await funded(l);
    const before = await root.balance();
    // The allowance is a window of the app clock's minute: five guesses must not straddle its end. The clock is
    // moved to the start of the next minute (instead of waiting up to 20 s for it when past 40 s).
    aheadMs += 60_000 - ((Date.now() + aheadMs) % 60_000) + 50;
    const counted = await failures();
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await open(l);
      // A second auth message while the first is checked is refused, not a free guess.
      c.send({ method: "auth", api_key: `guess-${i}-a` });
      c.send({ method: "auth", api_key: `guess-${i}-b` });
      codes.push((await c.closed).code);
    }
    expect(codes).toEqual([4401, 4401, 4401, 4429, 4429]);
    expect((await failures()) - counted).toBe(5);
    // The header path shares the allowance: already spent.
    const res = await fetch(`${l.http}/v1/wallets`, { headers: { "x-api-key": "guess-header" } });
    expect(res.status).toBe(429);
    expect(await root.balance()).toBe(before);
  });
});
