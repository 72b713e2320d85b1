/**
 * Issue 33: positions opened by a create's dev buy and by a create-led bundle's legs, shared by the SQLite and
 * PostgreSQL runs: every figure equals a hand computation from the chain's balance changes, each bundle
 * wallet's position is its own leg's, a later partial sell realizes against that basis, and the rebuild from
 * the execution history gives the same ledger.
 */
import { expect } from "vitest";
import { reconcileOnce } from "../../../src/domain/reconcile/reconcile.js";
import type { E2e } from "../../helpers/e2e.js";
import { positionHelpers, type Position } from "./positions-scenario.js";

const URI = "https://example.com/metadata/positions-created-0123456789abcdef.json";

/** Every figure of a position holding what one buy of `sol` (the wallet's balance change) brought. */
function expectBoughtOnce(p: Position, tokens: bigint, sol: bigint, executionId: string): void {
  expect(p.status).toBe("open");
  expect(BigInt(p.tokens_held)).toBe(tokens);
  expect(p.unknown_basis_tokens).toBe("0");
  expect(p.tokens_in_outside).toBe("0");
  expect(BigInt(p.spent_lamports)).toBe(-sol);
  expect(BigInt(p.cost_basis_lamports)).toBe(-sol);
  expect(p.realized_pnl_lamports).toBe("0");
  expect(p.trade_count).toBe(1);
  expect(p.last_execution_id).toBe(executionId);
  expect(p.decimals).toBe(6);
}

/** The rebuild from the execution history gives the same ledger. */
async function expectRebuildAgrees(e2e: E2e, apiKey: string): Promise<void> {
  const all = async () =>
    (await e2e.get(apiKey, "/v1/positions?valuation=none")).json<{ positions: Position[] }>();
  const before = await all();
  await e2e.store.rebuildPositions();
  expect(await all()).toEqual(before);
}

/** A create with a dev buy opens the creator's position; a partial sell realizes against it, to the lamport. */
export async function createThenSellScenario(e2e: E2e): Promise<void> {
  const { traded, position } = positionHelpers(e2e);
  const { apiKey, wallet } = await e2e.setup();
  const sol0 = await e2e.balance(wallet);
  const res = await e2e.post(apiKey, "/v1/laser/create", {
    name: "Held",
    symbol: "HELD",
    uri: URI,
    initial_buy: "0.1",
  });
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json<{ mint: string; execution_id: string; confirmed: boolean }>();
  expect(created.confirmed).toBe(true);
  const mint = created.mint;
  // Everything the create cost the wallet (accounts' rent, fee, the dev buy) is the tokens' basis.
  const cost = -((await e2e.balance(wallet)) - sol0);
  const bought = await e2e.tokenBalance(wallet, mint);
  expect(bought).toBeGreaterThan(0n);
  const p0 = await position(apiKey, wallet, mint);
  expectBoughtOnce(p0, bought, -cost, created.execution_id);
  expect(BigInt(p0.rent_lamports)).toBeGreaterThan(0n);

  const s = await traded(apiKey, wallet, mint, { action: "sell", amount: "40%" });
  const sold = -s.tokens;
  const removed = (cost * sold) / bought;
  const p = await position(apiKey, wallet, mint);
  expect(p.tokens_in_outside).toBe("0");
  expect(BigInt(p.tokens_held)).toBe(bought - sold);
  expect(BigInt(p.tokens_held)).toBe(await e2e.tokenBalance(wallet, mint));
  expect(BigInt(p.cost_basis_lamports)).toBe(cost - removed);
  expect(BigInt(p.realized_pnl_lamports)).toBe(s.sol - removed);
  expect(BigInt(p.received_lamports)).toBe(s.sol);
  expect(p.trade_count).toBe(2);

  const events = (
    await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0&types=position.updated",
      headers: { "x-api-key": apiKey, accept: "application/json" },
    })
  ).json<{ events: { execution_id: string; kind: string }[] }>().events;
  expect(events.map((e) => [e.execution_id, e.kind])).toEqual([
    [created.execution_id, "create"],
    [s.id, "trade"],
  ]);
  await expectRebuildAgrees(e2e, apiKey);
}

/** A create-led bundle with buyer wallets: each wallet's position is its own leg's; a buyer then sells part. */
export async function bundleScenario(e2e: E2e): Promise<void> {
  const { traded, position } = positionHelpers(e2e);
  const { apiKey, wallet: creator } = await e2e.setup();
  const buyers = [await e2e.fundedWallet(apiKey, 2n), await e2e.fundedWallet(apiKey, 2n)];
  const everyone = [creator, ...buyers];
  const before = await Promise.all(everyone.map((w) => e2e.balance(w)));
  const res = await e2e.post(apiKey, "/v1/laser/bundle", {
    accounts: [
      { type: "create", name: "Bundled", symbol: "BNDP", uri: URI, initial_buy: "0.2" },
      { type: "buy", wallet: buyers[0], amount: "0.1" },
      { type: "buy", wallet: buyers[1], amount: "0.15" },
    ],
    bundleTip: "0.00001",
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ mint: string; execution_id: string; confirmed: boolean }>();
  expect(body.confirmed).toBe(true);
  const { mint } = body;
  const after = await Promise.all(everyone.map((w) => e2e.balance(w)));
  const tokens = await Promise.all(everyone.map((w) => e2e.tokenBalance(w, mint)));
  for (const [i, w] of everyone.entries()) {
    const p = await position(apiKey, w, mint);
    expectBoughtOnce(p, tokens[i]!, after[i]! - before[i]!, body.execution_id);
  }
  // The bundle's tip is the first leg's alone, and part of its basis's fee share.
  expect((await position(apiKey, creator, mint)).tip_lamports).toBe("10000");
  expect((await position(apiKey, buyers[0]!, mint)).tip_lamports).toBe("0");

  const cost = before[1]! - after[1]!;
  const s = await traded(apiKey, buyers[0]!, mint, { action: "sell", amount: "50%" });
  const removed = (cost * -s.tokens) / tokens[1]!;
  const p = await position(apiKey, buyers[0]!, mint);
  expect(BigInt(p.tokens_held)).toBe(tokens[1]! + s.tokens);
  expect(BigInt(p.cost_basis_lamports)).toBe(cost - removed);
  expect(BigInt(p.realized_pnl_lamports)).toBe(s.sol - removed);
  expect(p.tokens_in_outside).toBe("0");
  await expectRebuildAgrees(e2e, apiKey);
}

/**
 * A create-led bundle whose confirmation wait ends before it lands (502, recorded `timeout`), then lands and is
 * settled by reconciliation: each leg's fill is read for its own wallet and applied to the ledger in the
 * settlement's transaction, so every wallet's position equals its chain balance change to the lamport.
 * Needs a bundle confirmation timeout shorter than the landing delay set here (the test's harness: 1.5 s).
 */
export async function reconciledBundleScenario(e2e: E2e): Promise<void> {
  const { position } = positionHelpers(e2e);
  const { apiKey, wallet: creator } = await e2e.setup();
  const buyers = [await e2e.fundedWallet(apiKey, 2n), await e2e.fundedWallet(apiKey, 2n)];
  const everyone = [creator, ...buyers];
  const before = await Promise.all(everyone.map((w) => e2e.balance(w)));
  // 60 slots of 50 ms: about 3 s, after the 1.5 s wait has given up (a slower slot timer only lands it later).
  e2e.localnet.admin.setFaults({ landAfterSlots: 60 });
  const res = await e2e.post(apiKey, "/v1/laser/bundle", {
    accounts: [
      { type: "create", name: "Reconciled", symbol: "RCNB", uri: URI, initial_buy: "0.2" },
      { type: "buy", wallet: buyers[0], amount: "0.1" },
      { type: "buy", wallet: buyers[1], amount: "0.15" },
    ],
    bundleTip: "0.00001",
  });
  expect(res.statusCode, res.body).toBe(502);
  const body = res.json<{ mint: string; execution_id: string; confirmed: boolean }>();
  expect(body.confirmed).toBe(false);
  const { mint, execution_id: id } = body;
  const record = async () =>
    (await e2e.get(apiKey, `/v1/executions/${id}`)).json<{ status: string; response: unknown }>();
  expect((await record()).status).toBe("timeout");
  // Nothing landed yet, so no position.
  expect((await e2e.get(apiKey, `/v1/positions/${creator}/${mint}`)).statusCode).toBe(404);

  // Passes until the chain has settled it (one owner: each pass may take the record again).
  for (let pass = 0; !["confirmed", "finalized"].includes((await record()).status); pass++) {
    if (pass === 120) throw new Error("the bundle was not settled by reconciliation within 30 s");
    await new Promise((r) => setTimeout(r, 250));
    await reconcileOnce({
      store: e2e.store,
      rpc: e2e.chain.rpc,
      fills: e2e.chain,
      owner: "positions-reconcile",
      clock: () => new Date(),
      graceMs: 0,
      leaseMs: 60_000,
    });
  }
  const after = await Promise.all(everyone.map((w) => e2e.balance(w)));
  const tokens = await Promise.all(everyone.map((w) => e2e.tokenBalance(w, mint)));
  for (const [i, w] of everyone.entries()) {
    expect(tokens[i]).toBeGreaterThan(0n);
    expectBoughtOnce(await position(apiKey, w, mint), tokens[i]!, after[i]! - before[i]!, id);
  }
  expect((await position(apiKey, creator, mint)).tip_lamports).toBe("10000");
  expect((await position(apiKey, buyers[1]!, mint)).tip_lamports).toBe("0");
  const events = (
    await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0&types=position.updated",
      headers: { "x-api-key": apiKey, accept: "application/json" },
    })
  ).json<{ events: { execution_id: string; kind: string; position: { wallet: string } }[] }>().events;
  expect(events.map((e) => [e.execution_id, e.kind, e.position.wallet])).toEqual(
    everyone.map((w) => [id, "bundle", w]),
  );
  await expectRebuildAgrees(e2e, apiKey);
}
