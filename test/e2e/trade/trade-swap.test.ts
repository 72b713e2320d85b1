/**
 * POST /v1/trades/execute on the launchswap venue after /admin/migrate, and routing with and without an
 * explicit pool, through the HTTP API against the localnet.
 */
import { describe, expect, it } from "vitest";
import { LAUNCH } from "../../../src/core/errors.js";
import { BALANCE_OVERHEAD_MAX, FIRST_TRADE_OVERHEAD_MAX, trade } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** A token whose curve completed and migrated into its canonical pool. */
function migratedToken(): { mint: string; pool: string } {
  const { mint } = e2e.localnet.admin.createToken();
  e2e.localnet.admin.complete(mint);
  const { pool } = e2e.localnet.admin.migrate(mint);
  return { mint, pool };
}

describe("trades on the launchswap venue", () => {
  it("SOL buy: tokens arrive and no more than expected_output lamports leave", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint, pool } = migratedToken();
    const sol0 = await e2e.balance(wallet);
    const body = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.2", slippage: "1.5" });
    expect(body).toMatchObject({
      venue: "launchswap",
      pool,
      mint,
      amount_units: 200_000_000,
      denominated_in_sol: true,
      confirmed: true,
    });
    // Maximum lamports threshold: the SOL amount plus 1.5 %.
    expect(BigInt(body.expected_output)).toBe(203_000_000n);
    expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThan(0n);
    const spent = sol0 - (await e2e.balance(wallet));
    expect(spent).toBeLessThanOrEqual(BigInt(body.expected_output) + FIRST_TRADE_OVERHEAD_MAX);
    expect(spent).toBeGreaterThan(150_000_000n);
  });

  it("exact-token buy, token sell and percentage sell against amount_units and expected_output", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = migratedToken();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" }); // creates the wallet's accounts
    const tokens0 = await e2e.tokenBalance(wallet, mint);

    let sol0 = await e2e.balance(wallet);
    const buy = await trade(e2e, apiKey, {
      action: "buy",
      mint,
      amount: 3_000_000_000,
      denominated_in_sol: false,
    });
    expect(buy.venue).toBe("launchswap");
    expect(buy.amount_units).toBe(3_000_000_000);
    const tokens1 = await e2e.tokenBalance(wallet, mint);
    expect(tokens1 - tokens0).toBe(3_000_000_000n);
    const spent = sol0 - (await e2e.balance(wallet));
    expect(spent).toBeLessThanOrEqual(BigInt(buy.expected_output) + BALANCE_OVERHEAD_MAX);

    sol0 = await e2e.balance(wallet);
    const sell = await trade(e2e, apiKey, { action: "sell", mint, amount: "1000000000" });
    expect(sell.amount_units).toBe(1_000_000_000);
    const tokens2 = await e2e.tokenBalance(wallet, mint);
    expect(tokens1 - tokens2).toBe(1_000_000_000n);
    const received = (await e2e.balance(wallet)) - sol0;
    expect(received + BALANCE_OVERHEAD_MAX).toBeGreaterThanOrEqual(BigInt(sell.expected_output));
    expect(BigInt(sell.expected_output)).toBeGreaterThan(0n);

    sol0 = await e2e.balance(wallet);
    const pct = await trade(e2e, apiKey, { action: "sell", mint, amount: "25.5%" });
    const units = (tokens2 * 2550n) / 10_000n;
    expect(pct.amount_units).toBe(Number(units));
    expect(await e2e.tokenBalance(wallet, mint)).toBe(tokens2 - units);
    const received2 = (await e2e.balance(wallet)) - sol0;
    expect(received2 + BALANCE_OVERHEAD_MAX).toBeGreaterThanOrEqual(BigInt(pct.expected_output));
  });
});

describe("routing", () => {
  it("without pool: the live curve, then the canonical pool once migrated; with pool: that pool", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const onCurve = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(onCurve.venue).toBe("bonding_curve");
    expect(onCurve.pool).toBeNull();

    e2e.localnet.admin.complete(mint);
    const notYet = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    expect(notYet.statusCode).toBe(400);
    expect(notYet.json()).toEqual({
      code: "launch.not_migrated",
      detail: LAUNCH.notMigrated,
      state: "awaiting_migration",
    });

    const { pool } = e2e.localnet.admin.migrate(mint);
    const routed = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(routed.venue).toBe("launchswap");
    expect(routed.pool).toBe(pool);

    const explicit = await trade(e2e, apiKey, { action: "sell", mint, pool, amount: "10%" });
    expect(explicit.venue).toBe("launchswap");
    expect(explicit.pool).toBe(pool);
    expect(explicit.mint).toBe(mint);
  });

  it("an explicit pool whose base mint is another token is refused before anything is built", async () => {
    const { apiKey } = await e2e.setup();
    const { pool } = migratedToken();
    const { mint: other } = e2e.localnet.admin.createToken();
    e2e.reset();
    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint: other,
      pool,
      amount: "0.01",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: "launch.pool_mint_mismatch", detail: LAUNCH.poolMintMismatch });
    expect(e2e.roundTrips()).toEqual({ "rpc.getMultipleAccounts": 1 });
  });

  it("a mint with neither curve nor pool is a 400", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = migratedToken();
    // The pool's address as a "mint": an existing account that is no token mint.
    const notAMint = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint: "So11111111111111111111111111111111111111112",
      amount: "0.01",
    });
    expect(notAMint.statusCode).toBe(400);
    expect(notAMint.json()).toEqual({ code: "launch.not_launch_token", detail: LAUNCH.notLaunchToken });
    expect(mint).toBeTruthy();
  });
});
