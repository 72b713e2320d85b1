/**
 * A raced trade honours `simulate` as a single trade does (the first route's variant is simulated before any is
 * sent: a refusal is the same 400 with the program error and logs, nothing sent, recorded failed) and reads the
 * fill of the variant that landed: the answer, the execution record, the positions ledger and its
 * `position.updated` event carry it as for an unraced trade (the landed route's tip counted as the tip).
 */
import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/chain/fills.js";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { SPEC } from "../../../src/core/errors.js";
import { trade } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e({ routes: { stats: new RouteStats() } });

interface RacedAnswer {
  execution_id: string;
  signature: string;
  confirmed: boolean;
  landed_via: string | null;
  routes: { route: string; signature: string; tip_lamports: string }[];
  fill?: Fill | null;
}

const accepted = (): number =>
  e2e.localnet.admin.routes().reduce((n: number, r: { accepted: number }) => n + r.accepted, 0);

describe("raced trades: simulation and fill", () => {
  it("a simulated raced buy answers, records and ledgers the fill of the variant that landed", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.02",
      simulate: true,
      routes: "all",
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json<RacedAnswer>();
    expect(a.confirmed).toBe(true);
    expect(a.fill).toBeTruthy();
    const fill = a.fill!;
    const landed = a.routes.find((v) => v.route === a.landed_via)!;
    expect(landed.signature).toBe(a.signature);
    // The landed route's own tip account is counted as the tip, not as rent.
    expect(fill.tip_lamports).toBe(landed.tip_lamports);
    expect(BigInt(fill.token_change)).toBe(await e2e.tokenBalance(wallet, mint));
    expect(fill.token_balance_after).toBe(fill.token_change);

    const rows = (await e2e.get(apiKey, `/v1/executions?signature=${a.signature}`)).json<{
      executions: { id: string; status: string; response: { fill?: Fill; landed_via?: string } }[];
    }>().executions;
    expect(rows.map((r) => r.id)).toEqual([a.execution_id]);
    expect(rows[0]).toMatchObject({ status: "confirmed", response: { fill, landed_via: a.landed_via } });

    const p = (await e2e.get(apiKey, `/v1/positions/${wallet}/${mint}?valuation=none`)).json<{
      tokens_held: string;
      cost_basis_lamports: string;
    }>();
    expect(p.tokens_held).toBe(fill.token_change);
    expect(BigInt(p.cost_basis_lamports)).toBeGreaterThan(0n);
    const events = (
      await e2e.app.inject({
        method: "GET",
        url: "/v1/events?after=0&types=position.updated",
        headers: { "x-api-key": apiKey, accept: "application/json" },
      })
    ).json<{ events: { type: string; execution_id: string }[] }>().events;
    expect(events.map((e) => e.execution_id)).toEqual([a.execution_id]);
  });

  it("a raced trade that fails its simulation is the single trade's 400: nothing sent, recorded failed", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const rival = await e2e.fundedWallet(apiKey, 5n);
    const { mint } = e2e.localnet.admin.createToken();
    // A first raced trade creates the wallet's nonce (not simulated: no simulation to hold yet).
    const first = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.001",
      simulate: false,
      routes: "all",
    });
    expect(first.statusCode, first.body).toBe(200);
    const sentBefore = accepted();
    // Hold the simulation while a rival buy moves the price: slippage 0 then fails the simulation.
    e2e.localnet.admin.setFaults({ methods: ["simulateTransaction"], hangMs: 3_000 });
    const pending = e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "1",
      slippage: 0,
      routes: "all",
    });
    for (let i = 0; i < 500 && (e2e.localnet.admin.stats()["rpc.simulateTransaction"] ?? 0) === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const rivalBuy = await trade(e2e, apiKey, {
      action: "buy",
      mint,
      amount: "2",
      simulate: false,
      wallet: rival,
    });
    expect(rivalBuy.confirmed).toBe(true);
    const res = await pending;
    expect(res.statusCode).toBe(400);
    const body = res.json<{
      detail: string;
      execution_id: string;
      program_error?: { code: number; name: string | null };
      logs?: unknown;
    }>();
    expect(body.detail).toBe(SPEC.trade.simulationFailed);
    expect(body.program_error?.code).toBeGreaterThan(6000);
    expect(Array.isArray(body.logs)).toBe(true);
    expect(e2e.localnet.admin.stats()["rpc.simulateTransaction"]).toBe(1);
    // No variant reached a route.
    expect(accepted()).toBe(sentBefore);
    const row = (await e2e.get(apiKey, `/v1/executions/${body.execution_id}`)).json<{
      status: string;
      wallet: string;
      signatures: string[];
      error: { detail: string };
    }>();
    expect(row).toMatchObject({ status: "failed", wallet, error: { detail: SPEC.trade.simulationFailed } });
    expect(row.signatures).toHaveLength(4);
  });
});
