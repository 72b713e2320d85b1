/**
 * Orders through the typed client (`orders.create/list/get/cancel`) and the CLI as a user runs it (`lasertrade
 * order tp|sl|trail|limit`, `orders`, `order cancel`) against the listening app with the warm state on.
 */
import { describe, expect, it } from "vitest";
import { LaserTrade } from "../../../packages/client/dist/index.js";
import { trade } from "../../helpers/e2e.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-orders-", { e2e: { warm: true, market: true } });

describe("orders in the client and the CLI", () => {
  it("creates, lists, gets and cancels; the CLI places tp, sl, trail and limit orders and cancels one", async () => {
    const { apiKey, wallet } = await t.e2e.setup({ sol: 10n });
    const { mint } = t.e2e.localnet.admin.createToken();
    await trade(t.e2e, apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const client = new LaserTrade({ baseUrl: t.baseUrl, apiKey });
    const made = await client.orders.create({ kind: "take_profit", mint, percent: 50 });
    expect(made).toMatchObject({ state: "open", kind: "take_profit", wallet });
    expect((await client.orders.get(made.id)).id).toBe(made.id);
    expect((await client.orders.list({ state: "open" })).orders.map((o) => o.id)).toContain(made.id);
    expect(await client.orders.cancel(made.id)).toMatchObject({ state: "cancelled" });
    // An Idempotency-Key places the order once however often the call is repeated.
    const once = { kind: "stop_loss" as const, mint, price: "0.000000001" };
    const first = await client.orders.create(once, { idempotencyKey: "client-order-1" });
    expect((await client.orders.create(once, { idempotencyKey: "client-order-1" })).id).toBe(first.id);

    const env = { LASERTRADE_URL: t.baseUrl, LASERTRADE_API_KEY: apiKey };
    const ids: string[] = [];
    for (const args of [
      ["order", "tp", mint, "+50%"],
      ["order", "sl", mint, "-20%"],
      ["order", "trail", mint, "15%"],
      ["order", "limit", "buy", mint, "0.000000001", "0.1"],
    ]) {
      const out = await t.run(["--json", ...args], env);
      expect(out.code, out.stderr).toBe(0);
      ids.push((JSON.parse(out.stdout) as { id: string }).id);
    }
    const keyed = ["--json", "order", "tp", mint, "1", "--idempotency-key", "cli-order-1"];
    const a = await t.run(keyed, env);
    const b = await t.run(keyed, env);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ id: (JSON.parse(a.stdout) as { id: string }).id });
    ids.push((JSON.parse(a.stdout) as { id: string }).id);
    const listed = await t.run(["--json", "orders", "--state", "open"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const open = (JSON.parse(listed.stdout) as { orders: { id: string; kind: string }[] }).orders;
    expect(open.map((o) => o.kind).sort()).toEqual([
      "limit",
      "stop_loss",
      "stop_loss",
      "take_profit",
      "take_profit",
      "trailing_stop",
    ]);
    const cancel = await t.run(["--json", "order", "cancel", ids[0]!], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout)).toMatchObject({ id: ids[0], state: "cancelled" });
    const bad = await t.run(["--json", "order", "sl", mint, "-100%"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("stop-loss must be a fall from entry between 0 and 100");
  });
});
