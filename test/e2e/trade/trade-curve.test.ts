/**
 * POST /v1/trades/execute on the bonding curve, through the HTTP API against the localnet: every trade's
 * on-chain balance change is checked against the response's amount_units and expected_output.
 */
import { describe, expect, it } from "vitest";
import { BALANCE_OVERHEAD_MAX, FIRST_TRADE_OVERHEAD_MAX, trade, type TradeBody } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** A fresh key with a funded default wallet and a fresh curve token. */
async function fresh() {
  const { apiKey, wallet } = await e2e.setup();
  const { mint } = e2e.localnet.admin.createToken();
  return { apiKey, wallet, mint };
}

describe("trades on the bonding curve", () => {
  it("SOL buy: spends amount_units and receives at least expected_output tokens", async () => {
    const { apiKey, wallet, mint } = await fresh();
    const sol0 = await e2e.balance(wallet);
    const body = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.1" });
    expect(body).toMatchObject({
      wallet,
      action: "buy",
      mint,
      amount: "0.1",
      amount_units: 100_000_000,
      amount_units_text: "100000000",
      denominated_in_sol: true,
      confirmed: true,
      venue: "bonding_curve",
      pool: null,
    });
    expect(["confirmed", "finalized"]).toContain(body.confirmation_status);
    expect(body.timing_ms).toBeUndefined();
    const tokens = await e2e.tokenBalance(wallet, mint);
    expect(tokens).toBeGreaterThanOrEqual(BigInt(body.expected_output));
    const spent = sol0 - (await e2e.balance(wallet));
    // buy_exact_sol_in spends exactly amount_units; the rest is fee, priority fee, tip and the token account's rent.
    expect(spent).toBeGreaterThanOrEqual(100_000_000n);
    expect(spent - 100_000_000n).toBeLessThanOrEqual(FIRST_TRADE_OVERHEAD_MAX);

    // Once the accounts exist, the overhead is only fee, priority fee and tip.
    const sol1 = await e2e.balance(wallet);
    const again = await trade(e2e, apiKey, { action: "buy", mint, amount: 0.05 });
    expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThanOrEqual(
      tokens + BigInt(again.expected_output),
    );
    const spent2 = sol1 - (await e2e.balance(wallet));
    expect(spent2).toBeGreaterThanOrEqual(50_000_000n);
    expect(spent2 - 50_000_000n).toBeLessThanOrEqual(BALANCE_OVERHEAD_MAX);
  });

  it("exact-token buy: receives exactly amount_units and pays at most expected_output lamports", async () => {
    const { apiKey, wallet, mint } = await fresh();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.001" }); // creates the wallet's accounts
    const tokens0 = await e2e.tokenBalance(wallet, mint);
    const sol0 = await e2e.balance(wallet);
    const body = await trade(e2e, apiKey, {
      action: "buy",
      token_mint: mint,
      amount: "2500000000",
      denominatedInSol: "false",
      slippage_bps: 100,
      measure_timing: true,
    });
    expect(body.amount_units).toBe(2_500_000_000);
    expect(body.denominated_in_sol).toBe(false);
    expect((await e2e.tokenBalance(wallet, mint)) - tokens0).toBe(2_500_000_000n);
    const spent = sol0 - (await e2e.balance(wallet));
    expect(spent).toBeLessThanOrEqual(BigInt(body.expected_output) + BALANCE_OVERHEAD_MAX);
    expect(spent).toBeGreaterThan(0n);
    expect(Object.keys(body.timing_ms ?? {}).sort()).toEqual(
      ["amount", "build", "confirmation", "database", "sender", "total", "wallet"].sort(),
    );
    for (const v of Object.values(body.timing_ms ?? {})) expect(Number.isInteger(v)).toBe(true);
  });

  it("token-unit sell and percentage sell: tokens leave as amount_units, at least expected_output lamports arrive", async () => {
    const { apiKey, wallet, mint } = await fresh();
    await trade(e2e, apiKey, { action: "buy", mint, amount: 0.5 });
    const held = await e2e.tokenBalance(wallet, mint);
    expect(held).toBeGreaterThan(0n);

    const units = held / 3n;
    let sol0 = await e2e.balance(wallet);
    const sell = await trade(e2e, apiKey, { side: "sell", mint, amount: units.toString() });
    expect(sell.amount_units).toBe(Number(units));
    expect(sell.denominated_in_sol).toBe(false);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(held - units);
    let received = (await e2e.balance(wallet)) - sol0;
    expect(received + BALANCE_OVERHEAD_MAX).toBeGreaterThanOrEqual(BigInt(sell.expected_output));
    expect(BigInt(sell.expected_output)).toBeGreaterThan(0n);

    const rest = held - units;
    sol0 = await e2e.balance(wallet);
    const pct = await trade(e2e, apiKey, { action: "sell", mint, amount: "50%" });
    const expectedUnits = (rest * 5000n) / 10_000n;
    expect(pct.amount).toBe("50%");
    expect(pct.amount_units).toBe(Number(expectedUnits));
    expect(await e2e.tokenBalance(wallet, mint)).toBe(rest - expectedUnits);
    received = (await e2e.balance(wallet)) - sol0;
    expect(received + BALANCE_OVERHEAD_MAX).toBeGreaterThanOrEqual(BigInt(pct.expected_output));

    // Issue 30: whole tokens (amount_tokens) with the mint's decimals (6); the answer's amount is atomic units.
    const left = rest - expectedUnits;
    const whole = await trade(e2e, apiKey, { action: "sell", mint, amount_tokens: "0.5" });
    expect(whole).toMatchObject({ amount: "500000", amount_units: 500_000, amount_units_text: "500000" });
    expect(await e2e.tokenBalance(wallet, mint)).toBe(left - 500_000n);

    const all = await trade(e2e, apiKey, { action: "sell", mint, amount: "100%" });
    expect(all.amount_units).toBe(Number(left - 500_000n));
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
  });

  it("a named wallet of the key signs and pays; the default wallet is untouched", async () => {
    const { apiKey, wallet, mint } = await fresh();
    const other = await e2e.fundedWallet(apiKey, 1n);
    const before = await e2e.balance(wallet);
    const body = await trade(e2e, apiKey, {
      action: "buy",
      mint,
      amount: "0.01",
      wallet: other,
    } as TradeBody);
    expect(body.wallet).toBe(other);
    expect(await e2e.tokenBalance(other, mint)).toBeGreaterThan(0n);
    expect(await e2e.balance(wallet)).toBe(before);
  });
});
