/**
 * GET /v1/stream end to end: the app listening on a port, its market feed on the chain subscription
 * layer's logsSubscribe against an in-process localnet, a `ws` client. Trades through the API, a token
 * created through the API and a migration by the localnet's migrate transaction arrive as messages;
 * authentication and bad messages behave as documented; a dropped PubSub connection is resubscribed.
 */
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createChainSubscriptions, type ChainSubscriptions } from "../../../src/chain/subscriptions/index.js";
import { LAMPORTS_PER_SOL } from "../../../src/core/amounts.js";
import { MarketHub } from "../../../src/domain/market/market-hub.js";
import { startMarketFeed } from "../../../src/domain/market/start-feed.js";
import { LAUNCH_PROGRAM_ID } from "../../../src/launch/programs.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import {
  chain,
  Client,
  connect,
  gaps,
  keyAndWallet,
  localnet,
  post,
  subs,
  t,
  tokenBalanceOf,
  url,
  useStreamE2e,
  waitFor,
} from "../../helpers/stream-e2e.js";

useStreamE2e();

describe("GET /v1/stream", () => {
  it("x-api-key at the upgrade: a trade through the API arrives on subscribeTokenTrade and subscribeAccountTrade", async () => {
    const { apiKey, wallet } = await keyAndWallet();
    const { mint } = localnet.admin.createToken({ name: "Watched", symbol: "WAT" });
    const byMint = await connect({ "x-api-key": apiKey });
    const byWallet = await connect({ "x-api-key": apiKey });
    expect(await byMint.subscribe("subscribeTokenTrade", [mint])).toMatchObject({
      type: "subscribed",
      method: "subscribeTokenTrade",
      keys: [mint],
      subscriptions: 1,
    });
    await byWallet.subscribe("subscribeAccountTrade", [wallet]);
    const res = await post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.1" });
    const trade = await byMint.next((m) => m.type === "trade");
    expect(trade).toMatchObject({
      type: "trade",
      signature: res.signature,
      mint,
      trader: wallet,
      side: "buy",
      venue: "bonding_curve",
      pool: null,
      is_mayhem: false,
      curve_complete: false,
    });
    expect(typeof trade.slot).toBe("number");
    for (const k of ["sol_amount", "token_amount", "virtual_sol_reserves", "virtual_token_reserves"])
      expect(trade[k]).toMatch(/^\d+$/);
    expect(trade.token_amount).toBe(String(await tokenBalanceOf(wallet, mint)));
    expect(await byWallet.next((m) => m.type === "trade")).toEqual(trade);
    // Unsubscribed: the next trade is not delivered.
    byMint.send({ method: "unsubscribeTokenTrade", keys: [mint] });
    expect(await byMint.next((m) => m.type === "unsubscribed")).toMatchObject({ subscriptions: 0 });
    const second = await post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.05" });
    expect((await byWallet.next((m) => m.type === "trade")).signature).toBe(second.signature);
    expect(byMint.messages.filter((m) => m.type === "trade")).toEqual([]);
    byMint.ws.close();
    byWallet.ws.close();
  });

  it("auth message: a token created through the API arrives as new_token; a migration as migration", async () => {
    const { apiKey, wallet } = await keyAndWallet(10n);
    const c = await connect();
    c.send({ method: "auth", api_key: apiKey });
    expect(await c.next()).toEqual({ type: "authenticated" });
    await c.subscribe("subscribeNewToken");
    await c.subscribe("subscribeMigration");
    const created = await post(apiKey, "/v1/laser/create", {
      name: "Streamed",
      symbol: "STR",
      uri: "https://example.test/s.json",
    });
    const nt = await c.next((m) => m.type === "new_token");
    expect(nt).toMatchObject({
      type: "new_token",
      signature: created.signature,
      mint: created.mint,
      name: "Streamed",
      symbol: "STR",
      uri: "https://example.test/s.json",
      creator: wallet,
      trader: wallet,
      is_mayhem: false,
      is_cashback: false,
    });
    const { mint } = localnet.admin.createToken();
    localnet.admin.complete(mint);
    const { pool, signature } = localnet.admin.migrate(mint);
    expect(await c.next((m) => m.type === "migration")).toMatchObject({
      type: "migration",
      signature,
      mint,
      pool,
      pool_migration_fee: "15000001",
    });
    c.ws.close();
  });

  it("refuses an unknown key at the upgrade (401), a late auth (4401) and a bad auth message (4401)", async () => {
    const refused = new WebSocket(url, { headers: { "x-api-key": "not-a-key" } });
    refused.on("error", () => undefined);
    const status = await new Promise<number>((resolve) =>
      refused.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
    refused.terminate();

    const silent = await connect();
    expect(await silent.closed).toMatchObject({ code: 4401 });

    const bad = await connect();
    bad.send({ method: "auth", api_key: "wrong" });
    expect(await bad.closed).toMatchObject({ code: 4401 });
  });

  it("bad messages get an error message and the connection stays open", async () => {
    const { apiKey } = await keyAndWallet(0n);
    const c = await connect();
    c.send({ method: "subscribeNewToken" });
    expect((await c.next()).message).toMatch(/authenticate first/);
    c.send({ method: "auth", api_key: apiKey });
    await c.next((m) => m.type === "authenticated");
    const cases: [unknown, RegExp][] = [
      ["{not json", /not valid JSON/],
      [[1, 2], /JSON object/],
      [{ keys: [] }, /method is required/],
      [{ method: "subscribeEverything" }, /unknown method/],
      [{ method: "subscribeTokenTrade" }, /non-empty array of mint addresses/],
      [{ method: "subscribeAccountTrade", keys: ["nope"] }, /is not a valid address/],
      [{ method: "subscribeTokenTrade", keys: [1] }, /is not a valid address/],
      [{ method: "auth" }, /api_key/],
    ];
    for (const [message, expected] of cases) {
      c.send(typeof message === "string" ? message : JSON.stringify(message));
      const reply = await c.next();
      expect(reply.type).toBe("error");
      expect(reply.message).toMatch(expected);
    }
    // The limit (4 in this app): new tokens + 3 mints fit, a fourth mint does not.
    expect((await c.subscribe("subscribeNewToken")).type).toBe("subscribed");
    const keys = Array.from({ length: 4 }, (_, i) => `${"1".repeat(31)}${"ABCD"[i]}`);
    expect(await c.subscribe("subscribeTokenTrade", keys)).toMatchObject({
      type: "error",
      message: expect.stringMatching(/at most 4 subscriptions/),
    });
    c.send({ method: "ping" });
    expect(await c.next()).toEqual({ type: "pong" });
    const metrics = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/^lasertrade_stream_connections [1-9]/m);
    expect(metrics).toMatch(/^lasertrade_stream_subscriptions [1-9]/m);
    expect(metrics).toMatch(/^lasertrade_stream_closed_total\{reason="unauthorized"\} [1-9]/m);
    expect(metrics).toMatch(/^lasertrade_stream_messages_delivered_total [1-9]/m);
    c.ws.close();
  });

  it("trades that land while the PubSub connection is down are re-read by signature and arrive exactly once", async () => {
    const { apiKey, wallet } = await keyAndWallet();
    const { mint } = localnet.admin.createToken();
    const c = await connect({ "x-api-key": apiKey });
    await c.subscribe("subscribeAccountTrade", [wallet]);
    const buy = () => post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    // One trade seen live, so the gap starts at a signature.
    const first = (await buy()).signature as string;
    expect((await c.next((m) => m.type === "trade")).signature).toBe(first);
    const before = gaps.length;
    localnet.admin.refusePubSub(true);
    expect(localnet.admin.dropPubSubConnections()).toBeGreaterThan(0);
    await waitFor(() => !subs.stats().connected);
    const inGap: string[] = [];
    for (let i = 0; i < 3; i++) inGap.push((await buy()).signature as string);
    localnet.admin.refusePubSub(false);
    await waitFor(() => gaps.length >= before + 2);
    const launch = gaps.slice(before).find((g) => g.programId === LAUNCH_PROGRAM_ID.toBase58());
    expect(launch?.result).toEqual({ listed: 3, reread: 3, complete: true });
    const after = (await buy()).signature as string;
    const got: string[] = [];
    while (got.at(-1) !== after) got.push((await c.next((m) => m.type === "trade")).signature as string);
    expect(got).toEqual([...inGap, after]);
    expect(c.messages.filter((m) => m.type === "trade")).toEqual([]);
    c.ws.close();
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "GET /v1/stream on PostgreSQL, two apps on one database",
  () => {
    const schema = freshSchemaName("stream");
    afterAll(async () => {
      if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
    });

    it("each app holds its own logs subscriptions; a key made on one authenticates on the other; both stream the trade", async () => {
      const pgUrl = TEST_DATABASE_URL!;
      const apps: { app: TestApp; stop: () => void; subs: ChainSubscriptions; url: string }[] = [];
      for (let i = 0; i < 2; i++) {
        const own = createChainSubscriptions({ url: localnet.wsUrl });
        const hub = new MarketHub();
        const f = startMarketFeed({ subscriptions: own, rpc: chain.rpc, hub });
        await f.ready;
        const app = await buildTestApp({ chain, databaseUrl: pgUrl, pgSchema: schema, market: { hub } });
        await app.app.listen({ port: 0, host: "127.0.0.1" });
        const a = app.app.server.address();
        if (a === null || typeof a === "string") throw new Error("no port");
        apps.push({ app, stop: f.stop, subs: own, url: `ws://127.0.0.1:${a.port}/v1/stream` });
      }
      try {
        const { apiKey, wallet } = await apps[0]!.app.setup();
        localnet.admin.fund(wallet, 5n * LAMPORTS_PER_SOL);
        const { mint } = localnet.admin.createToken();
        const clients: Client[] = [];
        for (const a of apps) {
          const ws = new WebSocket(a.url);
          const c = new Client(ws);
          await new Promise<void>((r) => ws.once("open", () => r()));
          c.send({ method: "auth", api_key: apiKey });
          await c.next((m) => m.type === "authenticated");
          await c.subscribe("subscribeTokenTrade", [mint]);
          clients.push(c);
        }
        const res = await apps[0]!.app.app.inject({
          method: "POST",
          url: "/v1/trades/execute",
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          payload: JSON.stringify({ action: "buy", mint, amount: "0.01" }),
        });
        expect(res.statusCode, res.body).toBe(200);
        const signature = res.json<{ signature: string }>().signature;
        for (const c of clients) {
          expect((await c.next((m) => m.type === "trade")).signature).toBe(signature);
          c.ws.close();
        }
      } finally {
        for (const a of apps) {
          a.stop();
          await a.subs.close();
          await a.app.close();
        }
      }
    });
  },
);
