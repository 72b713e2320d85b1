/**
 * What the curve suites do, on the launchswap pool (a migrated mint): a stop-loss, a bracket and a limit buy,
 * each fired by another wallet's trades and sent to the pool; an on_migration buy placed on the curve and
 * filled on the pool after the migration; and a stop-loss whose sell keeps failing (the relay refuses it) sent
 * again a bounded number of times (max_retries), then failed with the reason.
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";
import { move, placeOrder, settled, type OrderAnswer } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

async function migrated(): Promise<string> {
  const mint = e2e.localnet.admin.createToken().mint;
  e2e.localnet.admin.complete(mint);
  e2e.localnet.admin.migrate(mint);
  return mint;
}

async function venueOf(apiKey: string, done: OrderAnswer): Promise<string> {
  const exec = await e2e.get(apiKey, `/v1/executions/${done.execution_ids[done.execution_ids.length - 1]}`);
  return exec.json<{ response: { venue: string } }>().response.venue;
}

describe("orders on the launchswap pool", () => {
  it("a stop-loss from the position's entry sells on the pool when another wallet's sell drops the price", async () => {
    const mint = await migrated();
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, mover.apiKey, "buy", mint, "20");
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const o = await placeOrder(e2e, holder.apiKey, { kind: "stop_loss", mint, percent: -10 });
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "stop_loss" });
    expect(await venueOf(holder.apiKey, done)).toBe("launchswap");
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
  });

  it("a bracket on the pool fires its take-profit on a rise, once", async () => {
    const mint = await migrated();
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const o = await placeOrder(e2e, holder.apiKey, {
      kind: "bracket",
      mint,
      take_profit: { percent: 5 },
      stop_loss: { percent: -50 },
    });
    await move(e2e, mover.apiKey, "buy", mint, "20");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "take_profit" });
    expect(done.execution_ids).toHaveLength(done.attempts);
    expect(await venueOf(holder.apiKey, done)).toBe("launchswap");
  });

  it("a limit buy on the pool buys once the price falls to its level", async () => {
    const mint = await migrated();
    const buyer = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, mover.apiKey, "buy", mint, "20");
    const dry = await e2e.post(buyer.apiKey, "/v1/orders", {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.1",
      price: "0.000000001",
      dry_run: true,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const level = (Number(dry.json<{ price_now: string }>().price_now) * 0.9).toFixed(18);
    const o = await placeOrder(e2e, buyer.apiKey, {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.1",
      price: level,
    });
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, buyer.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "limit" });
    expect(await venueOf(buyer.apiKey, done)).toBe("launchswap");
    expect(await e2e.tokenBalance(buyer.wallet, mint)).toBeGreaterThan(0n);
  });

  it("an on_migration buy placed on the curve buys on the pool once the mint migrates", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const buyer = await e2e.setup({ sol: 10n });
    const o = await placeOrder(e2e, buyer.apiKey, { kind: "on_migration", side: "buy", mint, amount: "0.1" });
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
    const done = await settled(e2e, buyer.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "on_migration" });
    expect(await venueOf(buyer.apiKey, done)).toBe("launchswap");
    expect(await e2e.tokenBalance(buyer.wallet, mint)).toBeGreaterThan(0n);
  });

  it("a stop-loss whose sell keeps failing is sent 1 + max_retries times, then failed with the reason", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const held = await e2e.tokenBalance(holder.wallet, mint);
    // Every send of the order is refused by the relay (the mover is not needed: the level is above the price).
    e2e.localnet.admin.setFaults({ endpoints: ["relay"], errorCount: 3, errorKind: "http500" });
    try {
      const o = await placeOrder(e2e, holder.apiKey, {
        kind: "stop_loss",
        mint,
        price: "1",
        max_retries: 2,
      });
      const done = await settled(e2e, holder.apiKey, o.id);
      expect(done).toMatchObject({ state: "failed", triggered_by: "stop_loss", attempts: 3 });
      expect(done.execution_ids).toHaveLength(3);
      expect(done.error).toMatchObject({ status: 502, detail: expect.stringMatching(/HTTP 500/) });
      expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(held);
    } finally {
      e2e.localnet.admin.clearFaults();
    }
  });
});
