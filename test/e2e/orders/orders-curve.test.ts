/**
 * Orders on the sandbox (bonding curve): a take-profit, a stop-loss, a trailing stop, a limit buy and a bracket,
 * each fired by another account's trades moving the price, each checked on chain (the holder's token balance)
 * and in its execution record.
 */
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { move, placeOrder, settled, getOrder } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

async function holderWithPosition(sol = "0.5") {
  const mint = e2e.localnet.admin.createToken().mint;
  const holder = await e2e.setup({ sol: 10n });
  const mover = await e2e.setup({ sol: 100n });
  await trade(e2e, holder.apiKey, { action: "buy", mint, amount: sol, simulate: false, confirm: true });
  return { mint, holder, mover };
}

describe("orders on the bonding curve", () => {
  it("a take-profit at +20% sells the whole position once another wallet's buy lifts the price", async () => {
    const { mint, holder, mover } = await holderWithPosition();
    const before = await e2e.tokenBalance(holder.wallet, mint);
    expect(before).toBeGreaterThan(0n);
    const o = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: "+20%" });
    expect(o.state).toBe("open");
    // A small buy does not reach the level.
    await move(e2e, mover.apiKey, "buy", mint, "0.01");
    expect((await getOrder(e2e, holder.apiKey, o.id)).state).toBe("open");
    const solBefore = await e2e.balance(holder.wallet);
    await move(e2e, mover.apiKey, "buy", mint, "10");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "take_profit", attempts: 1 });
    expect(done.execution_ids).toHaveLength(1);
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
    expect(await e2e.balance(holder.wallet)).toBeGreaterThan(solBefore);
    const exec = await e2e.get(holder.apiKey, `/v1/executions/${done.execution_ids[0]}`);
    expect(exec.json()).toMatchObject({ status: "confirmed", idempotency_key: `order:${o.id}:1` });
  });

  it("a stop-loss at -20% from the position's entry sells when another wallet's sell drops the price", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    // The holder buys after the mover: its entry is high, the mover's exit takes the price far below it.
    await move(e2e, mover.apiKey, "buy", mint, "5");
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const o = await placeOrder(e2e, holder.apiKey, { kind: "stop_loss", mint, percent: -20 });
    expect(o).toMatchObject({ state: "open", entry_source: "position" });
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "stop_loss" });
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
  });

  it("a trailing stop follows the rise and sells on the fall from the highest price", async () => {
    const { mint, holder, mover } = await holderWithPosition();
    const o = await placeOrder(e2e, holder.apiKey, {
      kind: "trailing_stop",
      mint,
      trail_percent: 15,
      amount: "50%",
    });
    const half = (await e2e.tokenBalance(holder.wallet, mint)) / 2n;
    await move(e2e, mover.apiKey, "buy", mint, "5");
    await move(e2e, mover.apiKey, "buy", mint, "5");
    // The rise alone does not fire it.
    expect((await getOrder(e2e, holder.apiKey, o.id)).state).toBe("open");
    await move(e2e, mover.apiKey, "sell", mint, "60%");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "trailing_stop" });
    const left = await e2e.tokenBalance(holder.wallet, mint);
    expect(left).toBeGreaterThan(0n);
    expect(left).toBeLessThanOrEqual(half + 1n);
  });

  it("a limit buy below the price buys once the price falls to it", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const buyer = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, mover.apiKey, "buy", mint, "10");
    const dry = await e2e.post(buyer.apiKey, "/v1/orders", {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.1",
      price: "0.000000001",
      dry_run: true,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const now = dry.json<{ price_now: string; would_fire_now: boolean }>();
    expect(now.would_fire_now).toBe(false);
    const level = (Number(now.price_now) * 0.9).toFixed(18);
    const o = await placeOrder(e2e, buyer.apiKey, {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.1",
      price: level,
    });
    expect(await e2e.tokenBalance(buyer.wallet, mint)).toBe(0n);
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, buyer.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "limit" });
    expect(await e2e.tokenBalance(buyer.wallet, mint)).toBeGreaterThan(0n);
  });

  it("a bracket fires one leg only: the stop-loss on a fall, and the take-profit never after", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, mover.apiKey, "buy", mint, "5");
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const o = await placeOrder(e2e, holder.apiKey, {
      kind: "bracket",
      mint,
      take_profit: { percent: 50 },
      stop_loss: { percent: -15 },
    });
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "stop_loss" });
    // A rise past the take-profit level sends nothing more.
    await move(e2e, mover.apiKey, "buy", mint, "20");
    const after = await getOrder(e2e, holder.apiKey, o.id);
    expect(after.execution_ids).toEqual(done.execution_ids);
    expect(after.state).toBe("filled");
  });
});
