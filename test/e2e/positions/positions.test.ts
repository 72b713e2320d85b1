/**
 * Issue 33 through the HTTP API against the localnet: buy, buy, partial sell → the position's numbers equal a
 * hand computation from the chain's balance changes and the fills recorded; the liquidation value is the
 * warm state's sell quote; tokens transferred in get an unknown basis; the rebuild gives the same ledger; a
 * wallet-bound key sees only its wallets' positions; position.updated events.
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";
import { until } from "../../helpers/warm.js";
import { createSubKey } from "../../helpers/security.js";
import type { components } from "../../../packages/client/src/generated/openapi.js";

const e2e = useE2e({ warm: true });

type Position = components["schemas"]["Position"];

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

async function position(apiKey: string, wallet: string, mint: string, valuation = "none"): Promise<Position> {
  const res = await e2e.get(apiKey, `/v1/positions/${wallet}/${mint}?valuation=${valuation}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Position>();
}

describe("positions", () => {
  it("buy, buy, partial sell: the chain's numbers, the warm liquidation value, PnL, events, the rebuild", async () => {
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
  });

  it("tokens transferred in are held at an unknown basis; a wallet-bound key sees only its wallets", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const other = await e2e.fundedWallet(apiKey, 2n);
    const { mint } = e2e.localnet.admin.createToken();
    const a = await traded(apiKey, wallet, mint, { action: "buy", amount: "0.05" });
    await traded(apiKey, other, mint, { action: "buy", amount: "0.05" });
    const moved = (await e2e.tokenBalance(other, mint)) / 2n;
    const t = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      source_wallet: other,
      destination_wallet: wallet,
      mint,
      amount: moved.toString(),
    });
    expect(t.statusCode, t.body).toBe(200);
    const s = await traded(apiKey, wallet, mint, { action: "sell", amount: "100%" });
    const p = await position(apiKey, wallet, mint);
    expect(p.status).toBe("closed");
    expect(BigInt(p.tokens_in_outside)).toBe(moved);
    expect(p.tokens_held).toBe("0");
    expect(p.cost_basis_lamports).toBe("0");
    // The known tokens' share of the proceeds is realized against their cost; the rest is kept apart.
    const total = a.tokens + moved;
    const known = (s.sol * a.tokens) / total;
    expect(BigInt(p.realized_pnl_lamports)).toBe(known + a.sol);
    expect(BigInt(p.unknown_basis_proceeds_lamports)).toBe(s.sol - known);

    const bound = await createSubKey(e2e.app, apiKey, { name: "bound", scopes: ["read"], wallets: [other] });
    const seen = (await e2e.get(bound.apiKey, "/v1/positions")).json<{ positions: Position[] }>();
    expect(seen.positions.map((x) => x.wallet)).toEqual([other]);
    expect((await e2e.get(bound.apiKey, `/v1/positions/${wallet}/${mint}`)).statusCode).toBe(404);
    expect((await e2e.get(bound.apiKey, `/v1/positions/${other}/${mint}?valuation=none`)).statusCode).toBe(
      200,
    );
    const pnl = (await e2e.get(bound.apiKey, "/v1/pnl")).json<{ total: { trade_count: number } }>();
    expect(pnl.total.trade_count).toBe(1);
    const bad = await e2e.get(apiKey, "/v1/positions?status=live");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: "status must be one of open, closed", allowed: ["open", "closed"] });
  });

  it("a migration mid-position: bought on the curve, valued and sold on launchswap, to the lamport", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const b = await traded(apiKey, wallet, mint, { action: "buy", amount: "0.1" });
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
    // The warm state follows the migration through its subscriptions (a moment later).
    let read = await position(apiKey, wallet, mint, "read");
    await until(async () => {
      read = await position(apiKey, wallet, mint, "read");
      return read.valuation.venue === "launchswap";
    }, "the valuation on the pool");
    expect(BigInt(read.liquidation_value_lamports!)).toBeGreaterThan(0n);
    const s1 = await traded(apiKey, wallet, mint, { action: "sell", amount: "50%" });
    const s2 = await traded(apiKey, wallet, mint, { action: "sell", amount: "100%" });
    const p = await position(apiKey, wallet, mint);
    const cost = -b.sol;
    const removed = (cost * -s1.tokens) / b.tokens;
    expect(p.status).toBe("closed");
    expect(p.tokens_held).toBe("0");
    expect(BigInt(p.realized_pnl_lamports)).toBe(s1.sol - removed + (s2.sol - (cost - removed)));
    expect(BigInt(p.realized_pnl_lamports)).toBe(s1.sol + s2.sol + b.sol);
    expect(p.liquidation_value_lamports).toBe("0");
    expect(p.unrealized_pnl_lamports).toBe("0");
  });
});
