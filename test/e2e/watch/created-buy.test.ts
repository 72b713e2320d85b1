/**
 * Sniping a token created a moment ago: the market feed's create event (and the curve trades after it) give
 * the curve's state, so a buy by a wallet whose own account is warm is built without any account read
 * (`state_source: "event"`). A dev buy in the create moves the curve; the buy quoted from the events lands
 * under a tight slippage bound, so the events' state is the chain's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startE2eWithLookupTable, trade, type E2e } from "../../helpers/e2e.js";
import { until, warmTrade } from "../../helpers/warm.js";

// The create lookup table: a create with a dev buy is over 1232 bytes without it.
const e2e = {} as E2e;
beforeAll(async () => {
  Object.assign(e2e, await startE2eWithLookupTable({ warm: true, market: true }));
});
afterAll(async () => {
  if ("close" in e2e) await e2e.close();
});
beforeEach(() => e2e.reset());

/** Mints whose create event the feed decoded, from the test's start. */
function createdMints(): Set<string> {
  const seen = new Set<string>();
  e2e.feed!.onEvents((events) => {
    for (const ev of events) if (ev.kind === "create") seen.add(ev.mint);
  });
  return seen;
}

async function warmWallet(apiKey: string): Promise<void> {
  // Watching any mint keeps the key's wallets' own accounts subscribed.
  const { mint } = e2e.localnet.admin.createToken();
  const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
  expect(res.statusCode, res.body).toBe(200);
}

async function create(apiKey: string, devBuy?: string): Promise<string> {
  const res = await e2e.post(apiKey, "/v1/laser/create", {
    name: "Sniped",
    symbol: "SNP",
    uri: "https://example.test/s.json",
    ...(devBuy !== undefined ? { initial_buy: devBuy } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ mint: string }>().mint;
}

describe("buy of a mint seen created", () => {
  it("is built from the create event: no read; it lands; the mint is then watched", async () => {
    const seen = createdMints();
    const creator = await e2e.setup();
    const sniper = await e2e.setup();
    await warmWallet(sniper.apiKey);
    const mint = await create(creator.apiKey);
    await until(() => seen.has(mint), "the create event");
    e2e.reset();
    const res = await trade(e2e, sniper.apiKey, {
      action: "buy",
      mint,
      amount: "0.05",
      simulate: false,
      confirm: false,
    });
    const counted = e2e.roundTrips();
    expect(res.state_source).toBe("event");
    expect(res.venue).toBe("bonding_curve");
    expect(counted).toEqual({ "relay.sendTransaction": 1 });
    await until(async () => (await e2e.tokenBalance(sniper.wallet, mint)) > 0n, "the buy to land");
    // The buy watched the mint and the wallet's accounts of it: the next buy is on warm state.
    expect((await warmTrade(e2e, sniper.apiKey, mint)).state_source).toBe("cache");
  });

  it("follows the curve trades after the create (a dev buy): a 0.1 % slippage buy lands", async () => {
    const seen = createdMints();
    const creator = await e2e.setup();
    const sniper = await e2e.setup();
    await warmWallet(sniper.apiKey);
    const mint = await create(creator.apiKey, "1");
    await until(() => seen.has(mint), "the create event");
    expect(await e2e.tokenBalance(creator.wallet, mint)).toBeGreaterThan(0n);
    e2e.reset();
    const res = await trade(e2e, sniper.apiKey, {
      action: "buy",
      mint,
      amount: "0.5",
      slippage_bps: 10,
      simulate: false,
      confirm: true,
    });
    expect(res.state_source).toBe("event");
    expect(res.confirmed).toBe(true);
    expect(e2e.roundTrips()["rpc.getMultipleAccounts"]).toBeUndefined();
    expect(await e2e.tokenBalance(sniper.wallet, mint)).toBeGreaterThanOrEqual(BigInt(res.expected_output));
  });

  it("a wallet whose own account is not warm reads", async () => {
    const seen = createdMints();
    const creator = await e2e.setup();
    const cold = await e2e.setup();
    const mint = await create(creator.apiKey);
    await until(() => seen.has(mint), "the create event");
    const res = await trade(e2e, cold.apiKey, { action: "buy", mint, amount: "0.01", confirm: false });
    expect(res.state_source).toBe("read");
  });
});
