/**
 * Warm venue state (issue 18) through the HTTP API against the localnet: a watched mint with fresh state
 * trades on subscribed state (one upstream call: the send), migration and owner/size changes invalidate it,
 * and /v1/watch watches, lists and stops.
 */
import { describe, expect, it } from "vitest";
import { bondingCurveAddress } from "../../../src/launch/programs.js";
import { PublicKey } from "@solana/web3.js";
import { trade } from "../../helpers/e2e.js";
import { until, warmTrade as warmTradeOf } from "../../helpers/warm.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e({ warm: true });
const FAST = { simulate: false, confirm: false } as const;
const warmTrade = (apiKey: string, mint: string) => warmTradeOf(e2e, apiKey, mint);

async function watched(apiKey: string): Promise<string[]> {
  return (await e2e.get(apiKey, "/v1/watch")).json<{ watched: string[] }>().watched;
}

describe("warm venue state", () => {
  it("a mint is watched after its first trade; a warm trade's only upstream call is the send", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const first = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(first.state_source).toBe("read");
    expect(first.state_slot).toBeGreaterThan(0);
    expect(await watched(apiKey)).toContain(mint);
    await warmTrade(apiKey, mint);

    e2e.reset();
    const warm = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.001", ...FAST });
    expect(warm.state_source).toBe("cache");
    expect(e2e.roundTrips()).toEqual({ "relay.sendTransaction": 1 });
    expect(warm.state_slot).toBeGreaterThanOrEqual(first.state_slot);
  });

  it("GET /v1/quote (issue 22): one read, the mint watched, then answered from warm state with no call", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const { mint } = e2e.localnet.admin.createToken();
    const url = `/v1/quote?mint=${mint}&side=buy&amount=0.1`;
    const quote = async () => {
      const res = await e2e.get(apiKey, url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ state_source: string; tokens_out: string }>();
    };
    e2e.reset();
    const first = await quote();
    expect(first.state_source).toBe("read");
    expect(e2e.roundTrips()).toEqual({ "rpc.getMultipleAccounts": 1 });
    expect(await watched(apiKey)).toContain(mint);
    let last = first;
    await until(async () => {
      last = await quote();
      return last.state_source === "cache";
    }, "a quote on warm state");
    e2e.reset();
    const warm = await quote();
    expect(warm.state_source).toBe("cache");
    expect(e2e.roundTrips()).toEqual({});
    // Nothing traded in between: the same state, the same quote.
    expect(warm.tokens_out).toBe(first.tokens_out);
  });

  it("POST /v1/watch answers once live; the first trade is then warm; GET lists, DELETE stops", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ watched: [mint] });
    expect(await watched(apiKey)).toContain(mint);
    // The wallet's own token accounts are subscribed after its first trade of the mint.
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.001", ...FAST });
    await warmTrade(apiKey, mint);

    const del = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/watch/${mint}`,
      headers: { "x-api-key": apiKey },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ unwatched: mint });
    expect(await watched(apiKey)).not.toContain(mint);
    const again = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/watch/${mint}`,
      headers: { "x-api-key": apiKey },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: "watch.not_watched", detail: "mint not watched" });
  });

  it("refuses bad watch requests with a 400 and a useful detail", async () => {
    const { apiKey } = await e2e.setup();
    for (const body of [{}, { mints: [] }, { mints: "x" }]) {
      const res = await e2e.post(apiKey, "/v1/watch", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "watch.mints_list",
        detail: "mints must be a non-empty array of at most 100 mint addresses",
      });
    }
    // A body that is not an object gets the one text every route uses for it (issue 23).
    const notObject = await e2e.post(apiKey, "/v1/watch", [1]);
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json()).toEqual({
      detail: "request body must be a JSON object",
      code: "http.body_not_object",
    });
    const bad = await e2e.post(apiKey, "/v1/watch", { mints: ["not-a-mint"] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toBe("invalid mint address");
    const del = await e2e.app.inject({
      method: "DELETE",
      url: "/v1/watch/0OIl",
      headers: { "x-api-key": apiKey },
    });
    expect(del.statusCode).toBe(400);
  });

  it("migration of the curve invalidates the cached state: the next trade reads and routes to the pool", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    await warmTrade(apiKey, mint);
    e2e.localnet.admin.complete(mint);
    const { pool } = e2e.localnet.admin.migrate(mint);
    // Wait for the curve's notification (complete = true) to reach the cache.
    await new Promise((r) => setTimeout(r, 100));
    const after = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(after.state_source).toBe("read");
    expect(after.venue).toBe("launchswap");
    expect(after.pool).toBe(pool);
    const warm = await warmTrade(apiKey, mint);
    expect(warm.venue).toBe("launchswap");
  });

  it("a size change of a watched pool account invalidates it until a trade reads again; a curve may grow", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    await warmTrade(apiKey, mint);
    const curve = bondingCurveAddress(new PublicKey(mint));
    const info = await e2e.connection.getAccountInfo(curve, "confirmed");
    // A curve growing in place (as on its first October 2026 trade) stays warm: its fields are read at any size.
    const grown = Buffer.concat([info!.data, Buffer.alloc(8)]);
    e2e.localnet.admin.rewriteAccount(curve.toBase58(), { data: new Uint8Array(grown) });
    await new Promise((r) => setTimeout(r, 100));
    await warmTrade(apiKey, mint);
    // A shrink (a layout the decoders never saw) is not trusted: the next trade reads.
    const shrunk = (await e2e.connection.getAccountInfo(curve, "confirmed"))!.data.subarray(0, 125);
    e2e.localnet.admin.rewriteAccount(curve.toBase58(), { data: new Uint8Array(shrunk) });
    await new Promise((r) => setTimeout(r, 100));
    const after = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.001", ...FAST });
    expect(after.state_source).toBe("read");
    await warmTrade(apiKey, mint);
  });

  it("a dropped PubSub connection is resubscribed and re-read; trades are warm again afterwards", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    await warmTrade(apiKey, mint);
    const before = e2e.chain.subscriptions.stats().reconnects;
    e2e.localnet.admin.dropPubSubConnections();
    await until(() => e2e.chain.subscriptions.stats().reconnects > before, "a reconnect");
    await until(
      () => e2e.chain.subscriptions.stats().live === e2e.chain.subscriptions.stats().subscriptions,
      "resubscribed",
    );
    await warmTrade(apiKey, mint);
  });
});
