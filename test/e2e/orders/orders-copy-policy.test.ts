/**
 * Copy orders: the key's policy checked again at each fire (a cap lowered between create and fire refuses it:
 * nothing bought, the refusal logged and recorded, its SOL back to the order's caps; a buy the wallet cannot pay
 * is recorded failed with its reason) and the body's rules
 * (400 naming the rule: its own wallet, a wallet of its account, the follow list, the sizing, the sides).
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { callWith, createSubKey } from "../../helpers/security.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { fireActivity, firesOf, getOrder, placeOrder } from "./orders-fixture.js";
import { decided, leaderTrade } from "./copy-fixture.js";

const e2e = useE2e({ warm: true, market: true });

describe("copy orders: policy and rules", () => {
  it("a cap lowered after creation refuses the copy at fire time: nothing bought, logged with the rule", async () => {
    const leader = await e2e.setup({ sol: 10n });
    const root = await e2e.setup({ sol: 10n });
    const bot = await createSubKey(e2e.app, root.apiKey, { name: "copy-bot", scopes: ["trade", "read"] });
    const o = await placeOrder(e2e, bot.apiKey, { kind: "copy", follow: [leader.wallet], amount: "0.5" });
    const put = await callWith(e2e.app, root.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {
      max_sol_per_execution: "0.1",
    });
    expect(put.status).toBe(200);
    const mint = e2e.localnet.admin.createToken().mint;
    const sig = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.01");
    expect(await decided(e2e, o.id, sig)).toMatchObject({
      outcome: "refused:max_sol_per_execution",
      executionId: null,
      lamports: 0n,
    });
    expect(await fireActivity(e2e, root.apiKey, o.id)).toMatchObject({
      status: 403,
      rule: "max_sol_per_execution",
    });
    expect(await e2e.tokenBalance(root.wallet, mint)).toBe(0n);
    expect(await getOrder(e2e, bot.apiKey, o.id)).toMatchObject({ state: "open", execution_ids: [] });
    const fires = (await e2e.get(bot.apiKey, `/v1/orders/${o.id}/fires`)).json<{ fires: unknown[] }>();
    expect(fires).toMatchObject({
      fires: [{ signature: sig, decision: "refused", reason: "max_sol_per_execution", execution_id: null }],
      next_cursor: null,
    });
  });

  it("a copy the wallet cannot pay fails before its record: recorded and shown failed with the reason", async () => {
    const leader = await e2e.setup({ sol: 10n });
    // 1 SOL cannot pay a 5 SOL buy: the trade refuses it before anything is recorded or sent.
    const copier = await e2e.setup({ sol: 1n });
    const o = await placeOrder(e2e, copier.apiKey, { kind: "copy", follow: [leader.wallet], amount: "5" });
    const mint = e2e.localnet.admin.createToken().mint;
    const sig = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.01");
    expect(await decided(e2e, o.id, sig)).toMatchObject({
      outcome: expect.stringMatching(/^failed:insufficient SOL: wallet \S+ has 1\.0+ SOL/),
      executionId: null,
      lamports: 0n,
    });
    expect(await fireActivity(e2e, copier.apiKey, o.id)).toMatchObject({ status: 400 });
    expect(await e2e.tokenBalance(copier.wallet, mint)).toBe(0n);
    expect((await firesOf(e2e, copier.apiKey, o.id)).fires).toEqual([
      expect.objectContaining({
        signature: sig,
        decision: "failed",
        reason: expect.stringMatching(/^insufficient SOL: wallet \S+ has 1\.0+ SOL/),
        execution_id: null,
      }),
    ]);
  });

  it("refuses bad copy bodies with a 400 naming the rule", async () => {
    const copier = await e2e.setup();
    const other = await e2e.fundedWallet(copier.apiKey, 0n);
    const leader = Keypair.generate().publicKey.toBase58();
    const bad = async (body: Record<string, unknown>) => {
      const res = await e2e.post(copier.apiKey, "/v1/orders", { kind: "copy", ...body });
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ detail: string; code: string }>();
    };
    expect((await bad({ follow: [copier.wallet], amount: "0.1" })).detail).toMatch(
      /cannot follow its own wallet/,
    );
    expect((await bad({ follow: [other], amount: "0.1" })).detail).toMatch(/another wallet of this account/);
    expect((await bad({ follow: [], amount: "0.1" })).detail).toMatch(/follow must be a list of 1 to 20/);
    const many = Array.from({ length: 21 }, () => Keypair.generate().publicKey.toBase58());
    expect((await bad({ follow: many, amount: "0.1" })).detail).toMatch(/follow must be a list of 1 to 20/);
    expect((await bad({ follow: ["nope"], amount: "0.1" })).detail).toMatch(/follow must be/);
    expect((await bad({ follow: [leader, leader], amount: "0.1" })).detail).toMatch(/distinct/);
    expect((await bad({ follow: [leader], ratio: "0" })).detail).toMatch(
      /ratio must be a decimal number above 0/,
    );
    expect((await bad({ follow: [leader], ratio: -1 })).detail).toMatch(/ratio must be/);
    expect((await bad({ follow: [leader], amount: "0.1", ratio: "0.5" })).detail).toMatch(
      /amount or ratio, not both/,
    );
    expect((await bad({ follow: [leader] })).detail).toMatch(/needs amount .* or ratio/);
    expect((await bad({ follow: [leader], amount: "0.1", buys_only: true, sells_only: true })).code).toBe(
      "orders.sides_both",
    );
    expect((await bad({ follow: [leader], amount: "0.1", mint: leader })).code).toBe(
      "orders.copy_mint_given",
    );
    expect((await bad({ follow: [leader], amount: "0.1", delay_ms: 60_001 })).detail).toMatch(/delay_ms/);
    expect((await bad({ follow: [leader], amount: "0.1", max_price_move: 0 })).detail).toMatch(
      /max_price_move/,
    );
    expect((await bad({ follow: [leader], amount: "0.1", sell_sizing: "ratio" })).detail).toMatch(
      /needs ratio/,
    );
    const ok = await e2e.post(copier.apiKey, "/v1/orders", {
      kind: "copy",
      follow: [leader],
      ratio: "0.5",
      sells_only: true,
      dry_run: true,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ dry_run: true, policy: { allowed: true }, order: { kind: "copy" } });
  });
});
