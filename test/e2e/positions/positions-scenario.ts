/**
 * Issue 33: the positions e2e scenario shared by the SQLite and PostgreSQL runs, and its helpers: buy, buy,
 * partial sell through the HTTP API, checked against the chain's balance changes, the warm state's sell
 * quote, the PnL report, the position.updated events and the rebuild.
 */
import { expect } from "vitest";
import type { E2e } from "../../helpers/e2e.js";
import { until } from "../../helpers/warm.js";
import type { components } from "../../../packages/client/src/generated/openapi.js";

export type Position = components["schemas"]["Position"];

/** The helpers over one harness. */
export function positionHelpers(e2e: E2e) {
  /** Trades through the API; returns the wallet's SOL and token changes as the chain shows them. */
  async function traded(apiKey: string, wallet: string, mint: string, body: Record<string, unknown>) {
    const sol0 = await e2e.balance(wallet);
    const tok0 = await e2e.tokenBalance(wallet, mint);
    const res = await e2e.post(apiKey, "/v1/trades/execute", { mint, wallet, ...body });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json<{
      confirmed: boolean;
      execution_id: string;
      fill: { fee_lamports: string; rent_lamports: string; tip_lamports: string };
    }>();
    expect(t.confirmed).toBe(true);
    return {
      sol: (await e2e.balance(wallet)) - sol0,
      tokens: (await e2e.tokenBalance(wallet, mint)) - tok0,
      fees: BigInt(t.fill.fee_lamports) + BigInt(t.fill.tip_lamports) + BigInt(t.fill.rent_lamports),
      id: t.execution_id,
    };
  }

  async function position(
    apiKey: string,
    wallet: string,
    mint: string,
    valuation = "none",
  ): Promise<Position> {
    const res = await e2e.get(apiKey, `/v1/positions/${wallet}/${mint}?valuation=${valuation}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Position>();
  }
  return { traded, position };
}

/** Buy, buy, partial sell: every figure against the chain, the warm valuation, PnL, events, the rebuild. */
export async function buyBuySellScenario(e2e: E2e): Promise<void> {
  const { traded, position } = positionHelpers(e2e);
  const { apiKey, wallet } = await e2e.setup();
  const { mint } = e2e.localnet.admin.createToken();
  const b1 = await traded(apiKey, wallet, mint, { action: "buy", amount: "0.1" });
  const b2 = await traded(apiKey, wallet, mint, { action: "buy", amount: "0.05" });
  const s1 = await traded(apiKey, wallet, mint, { action: "sell", amount: "40%" });

  // The hand computation, from the chain's balance changes only.
  const bought = b1.tokens + b2.tokens;
  const cost = -(b1.sol + b2.sol);
  const sold = -s1.tokens;
  const removed = (cost * sold) / bought;
  const p = await position(apiKey, wallet, mint);
  expect(p.status).toBe("open");
  expect(BigInt(p.tokens_held)).toBe(await e2e.tokenBalance(wallet, mint));
  expect(BigInt(p.tokens_held)).toBe(bought - sold);
  expect(p.unknown_basis_tokens).toBe("0");
  expect(BigInt(p.spent_lamports)).toBe(cost);
  expect(BigInt(p.cost_basis_lamports)).toBe(cost - removed);
  expect(BigInt(p.realized_pnl_lamports)).toBe(s1.sol - removed);
  expect(BigInt(p.received_lamports)).toBe(s1.sol);
  // The rent of the first buy's token account is in the basis and in the fee part.
  expect(BigInt(p.rent_lamports)).toBeGreaterThan(0n);
  expect(BigInt(p.fee_lamports) + BigInt(p.tip_lamports) + BigInt(p.rent_lamports)).toBe(
    b1.fees + b2.fees + s1.fees,
  );
  expect(p.trade_count).toBe(3);
  expect(p.last_execution_id).toBe(s1.id);
  expect(p.decimals).toBe(6);

  // Valued on the warm state: the same number a sell quote of every token held gives from the cache.
  let valued = p;
  await until(async () => {
    valued = await position(apiKey, wallet, mint, "warm");
    return valued.valuation.source === "cache";
  }, "a warm valuation");
  let quote = { sol_out_lamports: "", state_source: "", state_slot: 0 };
  await until(async () => {
    const url = `/v1/quote?mint=${mint}&side=sell&amount=${p.tokens_held}&denominated_in_sol=false`;
    quote = (await e2e.get(apiKey, url)).json<typeof quote>();
    return quote.state_source === "cache";
  }, "a warm quote");
  expect(quote.state_source).toBe("cache");
  expect(valued.liquidation_value_lamports).toBe(quote.sol_out_lamports);
  expect(valued.valuation.slot).toBeGreaterThan(0);
  expect(BigInt(valued.unrealized_pnl_lamports!)).toBe(BigInt(quote.sol_out_lamports) - (cost - removed));
  // A thin curve: selling it all returns less than was paid for it (fees both ways).
  expect(BigInt(valued.unrealized_pnl_lamports!)).toBeLessThan(0n);

  const list = (await e2e.get(apiKey, "/v1/positions?status=open")).json<{ positions: Position[] }>();
  expect(list.positions.map((x) => x.mint)).toEqual([mint]);
  const pnl = (await e2e.get(apiKey, "/v1/pnl?group_by=day")).json<{
    total: Record<string, string | number | null>;
    groups: { key: string }[];
  }>();
  expect(pnl.total.realized_pnl_lamports).toBe(p.realized_pnl_lamports);
  expect(pnl.total.trade_count).toBe(3);
  expect(BigInt(pnl.total.volume_lamports as string)).toBe(cost + s1.sol);
  expect(pnl.groups).toHaveLength(1);

  const events = (
    await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0&types=position.updated",
      headers: { "x-api-key": apiKey, accept: "application/json" },
    })
  ).json<{ events: { type: string; execution_id: string; position: Position }[] }>().events;
  expect(events.map((e) => e.execution_id)).toEqual([b1.id, b2.id, s1.id]);
  expect(events[2]!.position.cost_basis_lamports).toBe(p.cost_basis_lamports);

  // The rebuild from the execution history gives the same ledger.
  const all = async () =>
    (await e2e.get(apiKey, "/v1/positions?valuation=none")).json<{ positions: Position[] }>();
  const before = await all();
  await e2e.store.rebuildPositions();
  expect(await all()).toEqual(before);
}
