/**
 * Orders beyond the curve basics: a take-profit on the launchswap pool, a trailing stop whose position
 * migrates from the curve to the pool while it waits, the order events on /v1/events, the open-order cap
 * (409), and exactly once: a second engine (another process's: its own warm state, the same store) on the
 * same orders fires each once; a claim left by a dead process is settled from what its attempt recorded.
 */
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { until } from "../../helpers/warm.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { startWarmVenues } from "../../../src/domain/watch/setup.js";
import { startOrders } from "../../../src/domain/orders/setup.js";
import { move, placeOrder, settled, getOrder } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true, env: { MAX_OPEN_ORDERS_PER_KEY: "3", ORDERS_SYNC_MS: "50" } });

async function migrated(): Promise<string> {
  const mint = e2e.localnet.admin.createToken().mint;
  e2e.localnet.admin.complete(mint);
  e2e.localnet.admin.migrate(mint);
  return mint;
}

/** A second process's engine: its own warm state over the same chain, the same store. */
async function secondEngine() {
  const warm = startWarmVenues(
    e2e.chain,
    { watchMints: [], watchedMintsMax: 100, stateMaxAgeSlots: 150, watchIdleMs: 600_000 },
    () => undefined,
  )!;
  const engine = await startOrders({
    store: e2e.store,
    chain: e2e.chain,
    vault: e2e.vault,
    venues: warm.venues,
    custody: { clock: () => new Date(), computeUnitLimit: () => 200_000 },
    fees: { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n },
    relayTipLamports: 0n,
    settings: { leaseMs: 60_000, syncMs: 50 },
    onError: () => undefined,
  });
  return { engine, close: () => (engine.close(), warm.close()) };
}

describe("order lifecycle", () => {
  it("a take-profit on the launchswap pool sells there", async () => {
    const mint = await migrated();
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    const bought = await trade(e2e, holder.apiKey, {
      action: "buy",
      mint,
      amount: "0.5",
      simulate: false,
      confirm: true,
    });
    expect(bought.venue).toBe("launchswap");
    const o = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: 5 });
    await move(e2e, mover.apiKey, "buy", mint, "20");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "take_profit" });
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
    const exec = (await e2e.get(holder.apiKey, `/v1/executions/${done.execution_ids[0]}`)).json<{
      response: { venue: string };
    }>();
    expect(exec.response.venue).toBe("launchswap");
  });

  it("a trailing stop placed on the curve fires on the pool after the migration", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 200n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const o = await placeOrder(e2e, holder.apiKey, { kind: "trailing_stop", mint, trail_percent: 5 });
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
    await move(e2e, mover.apiKey, "buy", mint, "20");
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "trailing_stop" });
    const exec = (await e2e.get(holder.apiKey, `/v1/executions/${done.execution_ids[0]}`)).json<{
      response: { venue: string };
    }>();
    expect(exec.response.venue).toBe("launchswap");
  });

  it("order events on /v1/events (filterable by type); the open-order cap answers 409", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const o = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: 10 });
    const c = await placeOrder(e2e, holder.apiKey, { kind: "stop_loss", mint, percent: -90 });
    await placeOrder(e2e, holder.apiKey, { kind: "stop_loss", mint, percent: -95 });
    const over = await e2e.post(holder.apiKey, "/v1/orders", { kind: "stop_loss", mint, percent: -99 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({
      code: "orders.too_many",
      detail: "this key holds the maximum of 3 open orders",
      max_open_orders: 3,
    });
    await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${c.id}`,
      headers: { "x-api-key": holder.apiKey },
    });
    await move(e2e, mover.apiKey, "buy", mint, "10");
    await settled(e2e, holder.apiKey, o.id);
    const page = await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0&types=order.created,order.triggered,order.filled,order.cancelled",
      headers: { "x-api-key": holder.apiKey, accept: "application/json" },
    });
    expect(page.statusCode, page.body).toBe(200);
    const events = page.json<{ events: { type: string; execution_id: string; kind: string }[] }>().events;
    const mine = events.filter((e) => e.execution_id === o.id).map((e) => e.type);
    expect(mine).toEqual(["order.created", "order.triggered", "order.filled"]);
    expect(events.filter((e) => e.execution_id === c.id).map((e) => e.type)).toEqual([
      "order.created",
      "order.cancelled",
    ]);
    expect(events.every((e) => e.kind === "order")).toBe(true);
  });

  it("two engines on one store fire each crossed order exactly once", async () => {
    const second = await secondEngine();
    try {
      const mint = e2e.localnet.admin.createToken().mint;
      const holder = await e2e.setup({ sol: 10n });
      const mover = await e2e.setup({ sol: 100n });
      await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.9", simulate: false, confirm: true });
      const ids: string[] = [];
      for (const amount of ["20%", "30%", "40%"])
        ids.push(
          (await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: 5, amount })).id,
        );
      await until(
        () => ids.every((id) => second.engine.book.get(id) !== undefined),
        "the second engine to load the orders",
      );
      e2e.localnet.admin.resetRelaySignatures();
      await move(e2e, mover.apiKey, "buy", mint, "10");
      // Three sells quoted on one state land one after the other: a later one may miss its slippage bound
      // and is sent again on fresh state (a new attempt, a new execution), never the same attempt twice.
      let executions = 0;
      for (const id of ids) {
        const done = await settled(e2e, holder.apiKey, id);
        expect(done.state).toBe("filled");
        expect(done.execution_ids).toHaveLength(done.attempts);
        executions += done.attempts;
      }
      // The mover's buy and one sell per attempt reached the relay: nothing twice.
      const sent = e2e.localnet.admin.relaySignatures().map((s) => s.signature);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent).toHaveLength(1 + executions);
    } finally {
      second.close();
    }
  });

  it("a dead process's claim: no execution recorded → open again and fired; one recorded → settled, never resent", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const lost = await placeOrder(e2e, holder.apiKey, {
      kind: "take_profit",
      mint,
      percent: 500,
      amount: "50%",
    });
    const sent = await placeOrder(e2e, holder.apiKey, {
      kind: "take_profit",
      mint,
      percent: 500,
      amount: "10%",
    });
    const accountId = (await e2e.store.liveOrders()).find((r) => r.id === lost.id)!.accountId;
    // What the dead process recorded for `sent`'s first attempt before sending it (records precede sends).
    const traded = await trade(e2e, holder.apiKey, {
      action: "sell",
      mint,
      amount: "10%",
      simulate: false,
      confirm: true,
    });
    await e2e.store.insertExecution({
      id: `exec-${sent.id}`,
      apiKeyId: accountId,
      kind: "trade",
      wallet: holder.wallet,
      wallets: [holder.wallet],
      signatures: [traded.signature],
      bundleId: null,
      status: "confirmed",
      confirmationStatus: "confirmed",
      request: {},
      response: null,
      error: null,
      timings: null,
      idempotencyKey: `order:${sent.id}:1`,
    });
    e2e.localnet.admin.resetRelaySignatures();
    // It had claimed both, then died: its leases have ended.
    for (const id of [lost.id, sent.id]) {
      const claimed = await e2e.store.transitionOrder({
        id,
        from: "open",
        to: "triggered",
        claim: { owner: "dead", leaseUntilMs: 1 },
      });
      expect(claimed).toBeDefined();
    }
    const s = await settled(e2e, holder.apiKey, sent.id);
    expect(s).toMatchObject({ state: "filled", execution_ids: [`exec-${sent.id}`], attempts: 1 });
    await until(
      async () => (await getOrder(e2e, holder.apiKey, lost.id)).state === "open",
      "the lost claim to reopen",
    );
    expect(e2e.localnet.admin.relaySignatures()).toHaveLength(0);
    await move(e2e, mover.apiKey, "buy", mint, "60");
    const l = await settled(e2e, holder.apiKey, lost.id);
    expect(l).toMatchObject({ state: "filled", attempts: 2 });
  });

  it("an open order past its expires_at expires (order.expired), and can no longer be cancelled", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.1", simulate: false, confirm: true });
    const expiresAt = new Date(Date.now() + 300).toISOString();
    const o = await placeOrder(e2e, holder.apiKey, {
      kind: "take_profit",
      mint,
      percent: 900,
      expires_at: expiresAt,
    });
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "expired", execution_ids: [] });
    const del = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${o.id}`,
      headers: { "x-api-key": holder.apiKey },
    });
    expect(del.statusCode).toBe(409);
    expect(del.json()).toEqual({
      code: "orders.not_open",
      detail: "order is expired: only an open order can be cancelled",
      state: "expired",
    });
    // Only standing orders (snipe, copy) keep records per trigger.
    const fires = await e2e.get(holder.apiKey, `/v1/orders/${o.id}/fires`);
    expect(fires.statusCode).toBe(400);
    expect(fires.json<{ detail: string }>().detail).toMatch(/^only snipe and copy orders keep a record/);
  });

  it("an on_migration sell fires once the curve has migrated, on the pool; placing one on a migrated mint is a 400", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const o = await placeOrder(e2e, holder.apiKey, { kind: "on_migration", mint });
    e2e.localnet.admin.complete(mint);
    expect((await getOrder(e2e, holder.apiKey, o.id)).state).toBe("open");
    e2e.localnet.admin.migrate(mint);
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "on_migration" });
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
    const exec = (await e2e.get(holder.apiKey, `/v1/executions/${done.execution_ids[0]}`)).json<{
      response: { venue: string };
    }>();
    expect(exec.response.venue).toBe("launchswap");
    const again = await e2e.post(holder.apiKey, "/v1/orders", {
      kind: "on_migration",
      side: "buy",
      mint,
      amount: "0.1",
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      detail: "mint is already on its launchswap pool: an on_migration order would fire at once",
    });
  });
});
