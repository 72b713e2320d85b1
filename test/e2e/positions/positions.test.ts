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
import { buyBuySellScenario, positionHelpers, type Position } from "./positions-scenario.js";

const e2e = useE2e({ warm: true });

const { traded, position } = positionHelpers(e2e);

describe("positions", () => {
  it("buy, buy, partial sell: the chain's numbers, the warm liquidation value, PnL, events, the rebuild", async () => {
    await buyBuySellScenario(e2e);
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
    // Seen on the chain at once; the ledger records it at the next trade.
    // (the warm state follows the transfer through its subscription: a moment later)
    let before = await position(apiKey, wallet, mint, "read");
    await until(async () => {
      before = await position(apiKey, wallet, mint, "read");
      return before.tokens_on_chain === String(a.tokens + moved);
    }, "the transfer in the warm state");
    expect(BigInt(before.tokens_held)).toBe(a.tokens);
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
    expect(bad.json()).toEqual({
      code: "positions.status_invalid",
      detail: "status must be one of open, closed",
      allowed: ["open", "closed"],
    });
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
