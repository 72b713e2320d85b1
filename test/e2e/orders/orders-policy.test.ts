/**
 * Orders and the key's custody: the policy is checked when the order is created and again when it fires (a
 * cap lowered in between refuses the fire: the order fails with the rule, nothing is sent); a frozen or revoked
 * key fires nothing; creation, cancellation and each firing are in the activity log.
 */
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { callWith, createSubKey } from "../../helpers/security.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { move, placeOrder, settled } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

async function account() {
  const mint = e2e.localnet.admin.createToken().mint;
  const root = await e2e.setup({ sol: 10n });
  const mover = await e2e.setup({ sol: 100n });
  const bot = await createSubKey(e2e.app, root.apiKey, { name: "order-bot", scopes: ["trade", "read"] });
  return { mint, root, mover, bot };
}

interface ActivityRow {
  key_id: number;
  method: string;
  route: string;
  status: number;
  rule: string | null;
}

/** The account's activity log as its root key reads it. */
async function activity(rootKey: string): Promise<ActivityRow[]> {
  const res = await e2e.get(rootKey, "/v1/activity?limit=100");
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ activity: ActivityRow[] }>().activity;
}

describe("orders and the key's policy", () => {
  it("a cap lowered between create and fire refuses the fire: failed with the rule, nothing bought, logged", async () => {
    const { mint, root, mover, bot } = await account();
    expect(
      (
        await callWith(e2e.app, root.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {
          max_sol_per_execution: "1",
        })
      ).status,
    ).toBe(200);
    await move(e2e, mover.apiKey, "buy", mint, "10");
    // Above the cap at creation: refused with the rule.
    const over = await e2e.post(bot.apiKey, "/v1/orders", {
      kind: "limit",
      side: "buy",
      mint,
      amount: "2",
      price: "1",
    });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ rule: "max_sol_per_execution" });
    const dry = await e2e.post(bot.apiKey, "/v1/orders", {
      kind: "limit",
      side: "buy",
      mint,
      amount: "2",
      price: "1",
      dry_run: true,
    });
    expect(dry.json()).toMatchObject({
      dry_run: true,
      policy: { allowed: false, rule: "max_sol_per_execution" },
    });
    // A limit buy of 0.5 SOL passes at creation and would fire at once (its level is far above the price)…
    const q = await e2e.post(bot.apiKey, "/v1/orders", {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.5",
      price: "0.000000001",
      dry_run: true,
    });
    const level = (Number(q.json<{ price_now: string }>().price_now) * 0.95).toFixed(18);
    const o = await placeOrder(e2e, bot.apiKey, {
      kind: "limit",
      side: "buy",
      mint,
      amount: "0.5",
      price: level,
    });
    // …but the cap goes down to 0.1 SOL before the price falls to the level.
    expect(
      (
        await callWith(e2e.app, root.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {
          max_sol_per_execution: "0.1",
        })
      ).status,
    ).toBe(200);
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    const done = await settled(e2e, bot.apiKey, o.id);
    expect(done.state).toBe("failed");
    expect(done.error).toMatchObject({ rule: "max_sol_per_execution" });
    expect(done.execution_ids).toEqual([]);
    expect(await e2e.tokenBalance(root.wallet, mint)).toBe(0n);
    const rows = await activity(root.apiKey);
    const fire = rows.find((r) => r.method === "FIRE" && r.route === `/v1/orders/${o.id}`);
    expect(fire).toMatchObject({ status: 403, rule: "max_sol_per_execution", key_id: bot.id });
    expect(rows.some((r) => r.method === "POST" && r.route === "/v1/orders" && r.status === 200)).toBe(true);
    expect(rows.some((r) => r.method === "POST" && r.route === "/v1/orders" && r.status === 403)).toBe(true);
  });

  it("a frozen key fires nothing, a revoked key fires nothing; a cancel is logged and ends the order", async () => {
    const { mint, root, mover, bot } = await account();
    await trade(e2e, root.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const held = await e2e.tokenBalance(root.wallet, mint);
    const frozen = await placeOrder(e2e, bot.apiKey, { kind: "take_profit", mint, percent: 10 });
    const bot2 = await createSubKey(e2e.app, root.apiKey, { name: "order-bot-2", scopes: ["trade", "read"] });
    const revoked = await placeOrder(e2e, bot2.apiKey, {
      kind: "take_profit",
      mint,
      percent: 10,
      amount: "10%",
    });
    const cancelled = await placeOrder(e2e, bot2.apiKey, {
      kind: "take_profit",
      mint,
      percent: 10,
      amount: "10%",
    });
    const del = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${cancelled.id}`,
      headers: { "x-api-key": bot2.apiKey },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ state: "cancelled" });
    const again = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${cancelled.id}`,
      headers: { "x-api-key": bot2.apiKey },
    });
    expect(again.statusCode).toBe(409);
    expect((await callWith(e2e.app, root.apiKey, "POST", `/v1/keys/${bot.id}/freeze`)).status).toBe(200);
    expect((await callWith(e2e.app, root.apiKey, "DELETE", `/v1/keys/${bot2.id}`)).status).toBe(200);
    await move(e2e, mover.apiKey, "buy", mint, "10");
    const f = await settled(e2e, root.apiKey, frozen.id);
    expect(f).toMatchObject({ state: "failed", error: { rule: "frozen" }, execution_ids: [] });
    const r = await settled(e2e, root.apiKey, revoked.id);
    expect(r).toMatchObject({ state: "failed", execution_ids: [] });
    expect(await e2e.tokenBalance(root.wallet, mint)).toBe(held);
    expect((await e2e.get(root.apiKey, `/v1/orders/${cancelled.id}`)).json()).toMatchObject({
      state: "cancelled",
    });
    const rows = await activity(root.apiKey);
    expect(rows.some((x) => x.method === "DELETE" && x.route === "/v1/orders/:id" && x.status === 200)).toBe(
      true,
    );
  });

  it("a key frozen while its order's fire signs sends nothing (the record's commit checks the key): failed, frozen", async () => {
    const { mint, root, mover, bot } = await account();
    await trade(e2e, root.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    const held = await e2e.tokenBalance(root.wallet, mint);
    const o = await placeOrder(e2e, bot.apiKey, { kind: "take_profit", mint, percent: 10 });
    const vault = e2e.vault;
    const inner = vault.withKeypair.bind(vault);
    let froze = false;
    // After the fire's custody passed and before its transaction is signed: the latest a freeze can come and
    // still stop the send (a read before signing would have seen the key live).
    vault.withKeypair = async (record, fn) => {
      if (!froze && record.publicKey === root.wallet) {
        froze = true;
        expect((await callWith(e2e.app, root.apiKey, "POST", `/v1/keys/${bot.id}/freeze`)).status).toBe(200);
      }
      return inner(record, fn);
    };
    try {
      await move(e2e, mover.apiKey, "buy", mint, "10");
      const f = await settled(e2e, root.apiKey, o.id);
      expect(froze).toBe(true);
      expect(f).toMatchObject({ state: "failed", error: { rule: "frozen" }, execution_ids: [] });
      expect(await e2e.tokenBalance(root.wallet, mint)).toBe(held);
      const rows = await activity(root.apiKey);
      const fire = rows.find((r) => r.method === "FIRE" && r.route === `/v1/orders/${o.id}`);
      expect(fire).toMatchObject({ status: 403, rule: "frozen", key_id: bot.id });
    } finally {
      vault.withKeypair = inner;
    }
  });

  it("a fire decided on a key kept from before a change is decided again on a fresh read, either way", async () => {
    const { mint, root, mover, bot } = await account();
    const other = e2e.localnet.admin.createToken().mint;
    const policy = async (max: string) =>
      expect(
        (
          await callWith(e2e.app, root.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {
            max_sol_per_execution: max,
          })
        ).status,
      ).toBe(200);
    await policy("1");
    // A limit buy of 0.5 SOL on each mint, 5% under its price: the key and wallet are kept as they enter the book.
    const place = async (m: string) => {
      await move(e2e, mover.apiKey, "buy", m, "10");
      const q = await e2e.post(bot.apiKey, "/v1/orders", {
        kind: "limit",
        side: "buy",
        mint: m,
        amount: "0.5",
        price: "0.000000001",
        dry_run: true,
      });
      const level = (Number(q.json<{ price_now: string }>().price_now) * 0.95).toFixed(18);
      return placeOrder(e2e, bot.apiKey, {
        kind: "limit",
        side: "buy",
        mint: m,
        amount: "0.5",
        price: level,
      });
    };
    const first = await place(mint);
    const second = await place(other);
    // Tightened: the first fire decides on the kept key (1 SOL), its claim finds the key changed, and the fire
    // is decided again on the key read then (0.1 SOL): refused. That read is now the kept one.
    await policy("0.1");
    await move(e2e, mover.apiKey, "sell", mint, "100%");
    expect(await settled(e2e, bot.apiKey, first.id)).toMatchObject({
      state: "failed",
      error: { rule: "max_sol_per_execution" },
      execution_ids: [],
    });
    // Loosened again: the second fire's kept key (0.1 SOL) refuses it, and the fresh read lets it through.
    await policy("1");
    await move(e2e, mover.apiKey, "sell", other, "100%");
    const done = await settled(e2e, bot.apiKey, second.id);
    expect(done.state).toBe("filled");
    expect(done.execution_ids).toHaveLength(1);
    expect(await e2e.tokenBalance(root.wallet, other)).toBeGreaterThan(0n);
    // One firing logged per order, with the decision that stood.
    const fires = (await activity(root.apiKey)).filter((r) => r.method === "FIRE");
    expect(fires.filter((r) => r.route === `/v1/orders/${second.id}`)).toMatchObject([{ status: 200 }]);
    expect(fires.filter((r) => r.route === `/v1/orders/${first.id}`)).toMatchObject([
      { status: 403, rule: "max_sol_per_execution" },
    ]);
  });
});
