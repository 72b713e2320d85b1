/**
 * Issue 22 item 2: a `confirm: false` trade settled by background reconciliation gets its fill from the
 * transaction's balance changes, as the request path does; GET /v1/executions/{id} shows it, equal to the
 * chain's balance change to the lamport, on the bonding curve and on the launchswap pool.
 */
import { describe, expect, it } from "vitest";
import { reconcileOnce } from "../../../src/domain/reconcile/reconcile.js";
import { useE2e } from "../../helpers/use-e2e.js";
import type { components } from "../../../packages/client/src/generated/openapi.js";

const e2e = useE2e();

/** A fill as the API documents it (the OpenAPI document's Fill component). */
type Fill = NonNullable<components["schemas"]["Fill"]>;
interface Execution {
  status: string;
  response: { fill?: Fill; confirmed?: boolean } | null;
}

const pass = (withFills: boolean) =>
  reconcileOnce({
    store: e2e.store,
    rpc: e2e.chain.rpc,
    ...(withFills ? { fills: e2e.chain } : {}),
    owner: "fills-test",
    clock: () => new Date(),
    graceMs: 0,
    leaseMs: 60_000,
  });

/**
 * A read of the test's own web3.js connection, tried up to three times: on a machine loaded by parallel test
 * files its first request has failed with `fetch failed` before any trade was sent (a harness hiccup, not
 * what this test measures).
 */
async function read<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      if (attempt >= 3 || !String(e).includes("fetch failed")) throw e;
    }
  }
}
const sol = (wallet: string) => read(() => e2e.balance(wallet));
const tokens = (wallet: string, mint: string) => read(() => e2e.tokenBalance(wallet, mint));

/** Sends a confirm-off trade, lets it land, reconciles; returns the execution and the chain's own changes. */
async function reconciledTrade(apiKey: string, wallet: string, mint: string, body: Record<string, unknown>) {
  const solBefore = await sol(wallet);
  const tokensBefore = await tokens(wallet, mint);
  const res = await e2e.post(apiKey, "/v1/trades/execute", {
    mint,
    simulate: false,
    confirm: false,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<{ execution_id: string; fill?: unknown }>().execution_id;
  // The request path did not wait, so it has no fill: the one the record gets comes from reconciliation.
  expect(res.json<{ fill?: unknown }>().fill).toBeUndefined();
  e2e.localnet.admin.advanceSlots(2);
  const report = await pass(true);
  expect(report.examined).toBe(1);
  const execution = (await e2e.get(apiKey, `/v1/executions/${id}`)).json<Execution>();
  return {
    execution,
    solChange: (await sol(wallet)) - solBefore,
    tokenChange: (await tokens(wallet, mint)) - tokensBefore,
  };
}

function expectConsistent(fill: Fill, side: "buy" | "sell"): void {
  const parts = BigInt(fill.fee_lamports) + BigInt(fill.tip_lamports) + BigInt(fill.rent_lamports);
  const change = BigInt(fill.sol_change_lamports);
  // A buy spends trade + fee + tip + rent; a sell receives trade minus them.
  if (side === "buy") expect(-change).toBe(BigInt(fill.trade_sol_lamports) + parts);
  else expect(change).toBe(BigInt(fill.trade_sol_lamports) - parts);
  expect(BigInt(fill.fee_lamports)).toBeGreaterThan(0n);
  expect(BigInt(fill.tip_lamports)).toBeGreaterThan(0n);
  expect(BigInt(fill.trade_sol_lamports)).toBeGreaterThan(0n);
}

describe("reconciled executions carry fills (issue 22)", () => {
  it("a confirm-off buy and sell on the curve: fill equals the chain's balance change", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();

    const buy = await reconciledTrade(apiKey, wallet, mint, { action: "buy", amount: "0.05" });
    expect(["confirmed", "finalized"]).toContain(buy.execution.status);
    const fill = buy.execution.response?.fill;
    expect(fill).toBeDefined();
    expect(BigInt(fill!.sol_change_lamports)).toBe(buy.solChange);
    expect(BigInt(fill!.token_change)).toBe(buy.tokenChange);
    expect(buy.tokenChange).toBeGreaterThan(0n);
    // The buy created the wallet's token account: its rent is reported apart from the trade.
    expect(BigInt(fill!.rent_lamports)).toBeGreaterThan(0n);
    expectConsistent(fill!, "buy");

    const sell = await reconciledTrade(apiKey, wallet, mint, { action: "sell", amount: "50%" });
    const sold = sell.execution.response?.fill;
    expect(sold).toBeDefined();
    expect(BigInt(sold!.sol_change_lamports)).toBe(sell.solChange);
    expect(BigInt(sold!.token_change)).toBe(sell.tokenChange);
    expect(sell.tokenChange).toBeLessThan(0n);
    expectConsistent(sold!, "sell");
  });

  it("a confirm-off buy on the launchswap pool: fill equals the chain's balance change", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
    const buy = await reconciledTrade(apiKey, wallet, mint, { action: "buy", amount: "0.05" });
    const fill = buy.execution.response?.fill;
    expect(fill).toBeDefined();
    expect(BigInt(fill!.sol_change_lamports)).toBe(buy.solChange);
    expect(BigInt(fill!.token_change)).toBe(buy.tokenChange);
    expectConsistent(fill!, "buy");
  });

  it("without the chain for fills, a reconciled trade settles without one (the option is what adds it)", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.01",
      simulate: false,
      confirm: false,
    });
    const id = res.json<{ execution_id: string }>().execution_id;
    e2e.localnet.admin.advanceSlots(2);
    await pass(false);
    const execution = (await e2e.get(apiKey, `/v1/executions/${id}`)).json<Execution>();
    expect(["confirmed", "finalized"]).toContain(execution.status);
    expect(execution.response?.fill).toBeUndefined();
  });
});
