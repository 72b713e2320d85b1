/**
 * Existing-token bundles through POST /v1/laser/bundle against the localnet: one buy or sell leg of a
 * token named at the top level, on the bonding curve or an explicit launchswap pool, with one account read.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SPEC } from "../../../src/core/errors.js";
import { startE2e, type E2e } from "../../helpers/e2e.js";

let e2e: E2e;
beforeAll(async () => {
  // No background refresh, so the round-trip counts below are the request's own; refreshed before each test.
  e2e = await startE2e({ chain: { cacheRefreshMs: 600_000 } });
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(async () => {
  await e2e.chain.caches.refresh();
  e2e.reset();
});

interface BundleBody {
  bundle_id: string;
  results: { index: number; type: string; wallet: string; signature: string }[];
  mint: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

async function bundle(apiKey: string, body: Record<string, unknown>): Promise<BundleBody> {
  const res = await e2e.post(apiKey, "/v1/laser/bundle", body);
  if (res.statusCode !== 200) throw new Error(`bundle failed: ${res.statusCode} ${res.body}`);
  return res.json<BundleBody>();
}

describe("existing-token bundles", () => {
  it("buys then sells a curve token in one-leg bundles; the sell returns SOL and empties the account", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();

    e2e.reset();
    const buy = await bundle(apiKey, {
      mint,
      accounts: [{ type: "buy", amount: "0.2" }],
      bundleTip: "0.00001",
    });
    expect(buy).toMatchObject({ mint, confirmed: true, results: [{ index: 0, type: "buy", wallet }] });
    // Chain state is read once for the whole bundle.
    expect(e2e.roundTrips()["rpc.getMultipleAccounts"]).toBe(1);
    expect(e2e.roundTrips()["bundle.sendBundle"]).toBe(1);
    const tokens = await e2e.tokenBalance(wallet, mint);
    expect(tokens).toBeGreaterThan(0n);

    const solBefore = await e2e.balance(wallet);
    const sell = await bundle(apiKey, {
      mint,
      accounts: [{ type: "sell", amount: tokens.toString(), denominatedInSol: false, slippageBps: 500 }],
      bundleTip: "0.00001",
    });
    expect(sell.results[0]).toMatchObject({ index: 0, type: "sell", wallet });
    expect(sell.bundle_id).not.toBe(buy.bundle_id);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    expect(await e2e.balance(wallet)).toBeGreaterThan(solBefore);

    const history = await e2e.get(apiKey, "/v1/executions?kind=bundle");
    const records = history.json<{ executions: Record<string, unknown>[] }>().executions;
    expect(records.map((r) => r.bundle_id)).toEqual([sell.bundle_id, buy.bundle_id]);
  });

  it("a token-denominated buy from a named wallet receives exactly the tokens asked for", async () => {
    const { apiKey } = await e2e.setup();
    const other = await e2e.fundedWallet(apiKey, 3n);
    const { mint } = e2e.localnet.admin.createToken();
    await bundle(apiKey, {
      mint,
      accounts: [{ type: "buy", wallet: other, amount: "123456789", denominatedInSol: false }],
      bundleTip: "0.00001",
    });
    expect(await e2e.tokenBalance(other, mint)).toBe(123_456_789n);
  });

  it("sells through an explicit launchswap pool of a migrated token", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await bundle(apiKey, { mint, accounts: [{ type: "buy", amount: "0.5" }], bundleTip: "0.00001" });
    const tokens = await e2e.tokenBalance(wallet, mint);
    e2e.localnet.admin.complete(mint);
    const { pool } = e2e.localnet.admin.migrate(mint);

    const half = tokens / 2n;
    await bundle(apiKey, {
      mint,
      accounts: [{ type: "sell", amount: half.toString(), denominatedInSol: "false", pool }],
      bundleTip: "0.00001",
    });
    expect(await e2e.tokenBalance(wallet, mint)).toBe(tokens - half);
  });

  it("an existing-token sell must set denominatedInSol false; two trade legs are refused", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.reset();
    const sell = await e2e.post(apiKey, "/v1/laser/bundle", {
      mint,
      accounts: [{ type: "sell", amount: "1000" }],
      bundleTip: "0.00001",
    });
    expect([sell.statusCode, sell.json()]).toEqual([
      400,
      { detail: SPEC.trade.sellInSol, code: "trade.sell_in_sol" },
    ]);
    const two = await e2e.post(apiKey, "/v1/laser/bundle", {
      mint,
      accounts: [
        { type: "buy", amount: "0.1" },
        { type: "buy", amount: "0.1" },
      ],
      bundleTip: "0.00001",
    });
    expect([two.statusCode, two.json()]).toEqual([
      400,
      { detail: SPEC.bundle.oneExistingTrade, code: "bundle.one_existing_trade" },
    ]);
    expect(e2e.roundTrips()).toEqual({});
  });
});
