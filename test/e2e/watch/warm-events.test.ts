/**
 * Decoded trade events refresh the warm venue state (issue 21) through the HTTP API against the localnet, with
 * the market feed running as main.ts runs it. The localnet holds account notifications back, so the only way
 * the warm state can learn of a trade is its event: the next quote from warm state is then computed on the
 * reserves after the trade (equal to a fresh read's quote), on the curve and on the pool.
 */
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { until, warmTrade } from "../../helpers/warm.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e({ warm: true, market: true });
const FAST = { simulate: false, confirm: false } as const;

interface Quote {
  venue: string;
  tokens_out: string;
  state_source: "cache" | "read";
}

async function quote(apiKey: string, mint: string): Promise<Quote> {
  const res = await e2e.get(apiKey, `/v1/quote?mint=${mint}&side=buy&amount=0.1`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}

/** The event-refresh counter of /metrics. */
async function eventRefreshes(): Promise<number> {
  const body = (await e2e.app.inject({ method: "GET", url: "/metrics" })).body;
  const line = body.split("\n").find((l) => l.startsWith("lasertrade_warm_state_event_refresh_total "));
  return Number(line?.split(" ")[1] ?? NaN);
}

/** Quotes until one is served from the cache (a quote's own stand-in accounts are watched after its first read). */
async function warmQuote(apiKey: string, mint: string): Promise<Quote> {
  let last: Quote | undefined;
  await until(async () => {
    last = await quote(apiKey, mint);
    return last.state_source === "cache";
  }, "a quote on warm state");
  return last!;
}

/** The quote a fresh read gives (the mint unwatched, so the quote reads), then watched again. */
async function readQuote(apiKey: string, mint: string): Promise<Quote> {
  const del = await e2e.app.inject({
    method: "DELETE",
    url: `/v1/watch/${mint}`,
    headers: { "x-api-key": apiKey },
  });
  expect(del.statusCode).toBe(200);
  const q = await quote(apiKey, mint);
  expect(q.state_source).toBe("read");
  return q;
}

/**
 * With account notifications held back, a warm trade lands on `mint`: the warm state learns of it only from
 * the trade's event. Returns the warm quotes before and after, and a fresh read's quote.
 */
async function tradeWhileNotificationsHeld(apiKey: string, mint: string) {
  await warmTrade(e2e, apiKey, mint);
  const before = await warmQuote(apiKey, mint);
  const refreshes = await eventRefreshes();
  e2e.localnet.admin.holdAccountNotifications(true);
  try {
    // The event's slot must be newer than the cached entries' (their last notification's slot).
    e2e.localnet.admin.advanceSlots(2);
    const traded = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.5", ...FAST });
    expect(traded.state_source).toBe("cache");
    await until(
      async () => (await eventRefreshes()) > refreshes,
      "the trade's event to refresh the warm state",
    );
    const after = await quote(apiKey, mint);
    expect(after.state_source).toBe("cache");
    const read = await readQuote(apiKey, mint);
    return { before, after, read };
  } finally {
    e2e.localnet.admin.holdAccountNotifications(false);
  }
}

describe("warm venue state refreshed by decoded trade events", () => {
  it.each([
    { venue: "bonding_curve", migrated: false, what: "the cached curve" },
    { venue: "launchswap", migrated: true, what: "the cached vault amounts" },
  ])("a $venue trade's event rewrites $what: the next warm quote is a fresh read's", async (c) => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    if (c.migrated) {
      e2e.localnet.admin.complete(mint);
      e2e.localnet.admin.migrate(mint);
    }
    const first = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(first.venue).toBe(c.venue);
    const { before, after, read } = await tradeWhileNotificationsHeld(apiKey, mint);
    expect(after.venue).toBe(c.venue);
    // 0.5 SOL bought in between: 0.1 SOL now buys fewer tokens, exactly as many as on the chain's state.
    expect(BigInt(after.tokens_out)).toBeLessThan(BigInt(before.tokens_out));
    expect(after.tokens_out).toBe(read.tokens_out);
  });

  it("without held notifications the event and the notification agree: the warm quote stays a fresh read's", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    await warmTrade(e2e, apiKey, mint);
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.5" });
    await new Promise((r) => setTimeout(r, 100));
    const warm = await warmQuote(apiKey, mint);
    expect(warm.tokens_out).toBe((await readQuote(apiKey, mint)).tokens_out);
  });
});
