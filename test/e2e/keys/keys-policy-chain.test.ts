/**
 * Issue 19 with a chain (localnet, SQLite): the worked example — a trade-only bot key with a daily cap — buys
 * until the cap, is then refused with the body and nothing is sent; the priority-fee bound refuses
 * at record time without recording; the activity log carries the execution ids.
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";
import { callWith, createSubKey, expectRefusal } from "../../helpers/security.js";
import { external } from "../../helpers/e2e.js";

const e2e = useE2e();

describe("policies on real executions", () => {
  it("a trade-only key with max_sol_per_24h buys until the cap, then gets the refusal and nothing is sent", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade", "read"] });
    const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { max_sol_per_24h: "1" });
    expect(put.status).toBe(200);
    const buy = () =>
      callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", { action: "buy", mint, amount: "0.4" });
    expect((await buy()).status).toBe(200);
    expect((await buy()).status).toBe(200);
    const before = await e2e.balance(wallet);
    const third = await buy();
    expect(third.status).toBe(403);
    expect(third.body.rule).toBe("max_sol_per_24h");
    expect(third.body.detail).toMatch(
      /^policy max_sol_per_24h: 0\.80\d* of 1 SOL used, this trade needs 0\.40$/,
    );
    expect(await e2e.balance(wallet)).toBe(before);
    const history = await callWith(e2e.app, root, "GET", "/v1/executions");
    expect((history.body.executions as unknown[]).length).toBe(2);
    // No transfers for this key.
    const send = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: external(),
      amount: "0.1",
    });
    expectRefusal(send, 403, "scope", "transfer");
    const activity = await callWith(e2e.app, root, "GET", `/v1/activity?key_id=${bot.id}`);
    const rows = activity.body.activity as {
      status: number;
      rule: string | null;
      execution_id: string | null;
    }[];
    expect(rows.map((r) => [r.status, r.rule])).toEqual([
      [403, "scope"],
      [403, "max_sol_per_24h"],
      [200, null],
      [200, null],
    ]);
    expect(typeof rows[2]?.execution_id).toBe("string");
  });

  it("max_priority_fee_lamports refuses at record time: nothing recorded, nothing sent", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { max_priority_fee_lamports: 1 });
    const before = await e2e.balance(wallet);
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
    });
    expectRefusal(r, 403, "max_priority_fee_lamports", "trade");
    expect(String(r.body.detail)).toMatch(
      /^policy max_priority_fee_lamports: this trade pays a priority fee of \d+ lamports, at most 1 allowed$/,
    );
    expect(await e2e.balance(wallet)).toBe(before);
    const history = await callWith(e2e.app, root, "GET", "/v1/executions");
    expect(history.body.executions).toEqual([]);
  });
});
