/**
 * Snipe orders on the sandbox: an open snipe order buys each new token whose create event matches its rule
 * (here: the creator), once per token, and stays open; a token another creator makes is not bought; a cap
 * lowered after creation refuses the fire (nothing bought, logged with the rule); a fire the wallet cannot pay is
 * recorded failed with its reason, and a claim its process left unsettled is settled dropped by the
 * reconciliation (never left `claimed`). Each buy is checked on chain
 * and in its execution record (Idempotency-Key `order:<id>:<mint>`).
 */
import { describe, expect, it } from "vitest";
import { callWith, createSubKey } from "../../helpers/security.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { until } from "../../helpers/warm.js";
import { fireActivity, firesOf, getOrder, placeOrder, type OrderAnswer } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

async function create(apiKey: string, name = "Sniped"): Promise<string> {
  const res = await e2e.post(apiKey, "/v1/laser/create", {
    name,
    symbol: "SNP",
    uri: "https://example.test/s.json",
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ mint: string }>().mint;
}

describe("snipe orders", () => {
  it("buy each token its creator makes, once, from the create event; another creator's token is not bought", async () => {
    const creator = await e2e.setup();
    const other = await e2e.setup();
    const sniper = await e2e.setup({ sol: 10n });
    const o = await placeOrder(e2e, sniper.apiKey, {
      kind: "snipe",
      creators: [creator.wallet],
      amount: "0.05",
      slippage_bps: 500,
    });
    expect(o).toMatchObject({ kind: "snipe", state: "open", mint: null, amount: "0.05" });
    // Decided in event order: the other creator's token is matched (and refused) before the creator's.
    const skipped = await create(other.apiKey);
    const first = await create(creator.apiKey);
    await until(async () => (await e2e.tokenBalance(sniper.wallet, first)) > 0n, "the first snipe to land");
    e2e.reset();
    const second = await create(creator.apiKey);
    await until(async () => (await e2e.tokenBalance(sniper.wallet, second)) > 0n, "the second snipe to land");
    // The buy was built from the create event: no account read; two sends (the create, the snipe).
    expect(e2e.roundTrips()["rpc.getMultipleAccounts"]).toBeUndefined();
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBe(2);
    expect(await e2e.tokenBalance(sniper.wallet, skipped)).toBe(0n);
    let after: OrderAnswer | undefined;
    await until(async () => {
      after = await getOrder(e2e, sniper.apiKey, o.id);
      return after.execution_ids.length === 2;
    }, "both fires recorded");
    expect(after!.state).toBe("open");
    const keys = [];
    for (const id of after!.execution_ids) {
      const exec = await e2e.get(sniper.apiKey, `/v1/executions/${id}`);
      expect(exec.json()).toMatchObject({ status: "confirmed" });
      keys.push(exec.json<{ idempotency_key: string }>().idempotency_key);
    }
    expect(keys.sort()).toEqual([`order:${o.id}:${first}`, `order:${o.id}:${second}`].sort());
    const cancel = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${o.id}`,
      headers: { "x-api-key": sniper.apiKey },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ state: "cancelled" });
    // One order.triggered event per token bought; the order's own lifecycle events around them.
    const page = await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0&types=order.created,order.triggered,order.cancelled",
      headers: { "x-api-key": sniper.apiKey, accept: "application/json" },
    });
    expect(page.statusCode, page.body).toBe(200);
    const events = page.json<{ events: { type: string; execution_id: string }[] }>().events;
    expect(events.filter((e) => e.execution_id === o.id).map((e) => e.type)).toEqual([
      "order.created",
      "order.triggered",
      "order.triggered",
      "order.cancelled",
    ]);
  });

  it("a cap lowered after creation refuses the fire at fire time: nothing bought, the refusal logged", async () => {
    const creator = await e2e.setup();
    const root = await e2e.setup({ sol: 10n });
    const bot = await createSubKey(e2e.app, root.apiKey, { name: "snipe-bot", scopes: ["trade", "read"] });
    const o = await placeOrder(e2e, bot.apiKey, { kind: "snipe", creators: [creator.wallet], amount: "0.5" });
    const put = await callWith(e2e.app, root.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {
      max_sol_per_execution: "0.1",
    });
    expect(put.status).toBe(200);
    const mint = await create(creator.apiKey);
    expect(await fireActivity(e2e, root.apiKey, o.id)).toMatchObject({
      status: 403,
      rule: "max_sol_per_execution",
    });
    expect(await e2e.tokenBalance(root.wallet, mint)).toBe(0n);
    expect(await getOrder(e2e, bot.apiKey, o.id)).toMatchObject({ state: "open", execution_ids: [] });
    // The refusal is on the (order, mint) row: the mint is not used up, nor a slot of the hourly cap.
    await until(async () => (await e2e.store.orderFires(o.id))[0]?.refused != null, "the refusal recorded");
    expect(await e2e.store.orderFires(o.id)).toMatchObject([
      { mint, executionId: null, refused: { rule: "max_sol_per_execution" } },
    ]);
    const fires = await e2e.get(bot.apiKey, `/v1/orders/${o.id}/fires`);
    expect(fires.json()).toEqual({
      fires: [
        expect.objectContaining({ mint, side: "buy", decision: "refused", reason: "max_sol_per_execution" }),
      ],
      next_cursor: null,
    });
  });

  it("a fire the wallet cannot pay fails before its record: shown failed with the reason, never left claimed", async () => {
    const creator = await e2e.setup();
    // 1 SOL cannot pay a 5 SOL buy: the trade refuses it before anything is recorded or sent.
    const sniper = await e2e.setup({ sol: 1n });
    const o = await placeOrder(e2e, sniper.apiKey, {
      kind: "snipe",
      creators: [creator.wallet],
      amount: "5",
    });
    const mint = await create(creator.apiKey);
    expect(await fireActivity(e2e, sniper.apiKey, o.id)).toMatchObject({ status: 400 });
    expect(await e2e.tokenBalance(sniper.wallet, mint)).toBe(0n);
    expect(await getOrder(e2e, sniper.apiKey, o.id)).toMatchObject({ state: "open", execution_ids: [] });
    expect((await firesOf(e2e, sniper.apiKey, o.id)).fires).toEqual([
      expect.objectContaining({
        mint,
        decision: "failed",
        reason: expect.stringMatching(/^insufficient SOL: wallet \S+ has 1\.0+ SOL/),
        execution_id: null,
        execution_state: null,
      }),
    ]);
  });

  it("a claim whose process ended before its record is settled as dropped by the engine's reconciliation", async () => {
    const sniper = await e2e.setup();
    const o = await placeOrder(e2e, sniper.apiKey, {
      kind: "snipe",
      creators: [sniper.wallet],
      amount: "0.05",
    });
    const row = (await e2e.store.liveOrders()).find((r) => r.id === o.id)!;
    // As a killed process leaves it: claimed longer ago than ORDERS_LEASE_MS (120 s), no execution recorded.
    const mint = e2e.localnet.admin.createToken().mint;
    const claim = await e2e.store.claimOrderFire({
      orderId: o.id,
      accountId: row.accountId,
      mint,
      lamports: 50_000_000n,
      atMs: Date.now() - 200_000,
      window: null,
    });
    expect(claim).toBe("claimed");
    await until(async () => (await e2e.store.orderFires(o.id))[0]?.outcome != null, "the claim reconciled");
    expect(await e2e.store.orderFires(o.id)).toMatchObject([
      { mint, executionId: null, outcome: "dropped:process_ended" },
    ]);
    expect((await firesOf(e2e, sniper.apiKey, o.id)).fires).toMatchObject([
      { mint, decision: "dropped", reason: "process_ended", execution_id: null },
    ]);
  });

  it("refuses a snipe with a mint, without a rule, or with a bad creator (400 naming the rule)", async () => {
    const sniper = await e2e.setup();
    const bad = async (body: Record<string, unknown>) => {
      const res = await e2e.post(sniper.apiKey, "/v1/orders", { kind: "snipe", amount: "0.1", ...body });
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ detail: string }>().detail;
    };
    expect(await bad({ mint: sniper.wallet, creators: [sniper.wallet] })).toMatch(/takes no mint/);
    expect(await bad({})).toMatch(/needs a rule/);
    expect(await bad({ creators: ["x"] })).toMatch(/creators must be/);
  });
});
