/**
 * Issue 22 item 5 on the localnet: a trade's own `priority_fee` is exactly what the transaction pays above
 * its signature fee (the node's meta), its own `tip` reaches a relay tip account, a dry run shows both, the
 * bounds and the key's policy refuse, and an unknown body field comes back as a warning.
 */
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { REQUEST_FEES } from "../../../src/core/errors.js";
import { callWith, createSubKey } from "../../helpers/security.js";
import { feeOf, trade } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** Lamports each relay tip account gained in the transaction, from the node's balances. */
async function tipsPaid(signature: string): Promise<bigint> {
  const tx = await e2e.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  if (!tx?.meta) throw new Error(`no meta for ${signature}`);
  const keys = tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
  const tipAccounts = new Set(e2e.chain.relayTip().accounts.map((a: PublicKey) => a.toBase58()));
  let paid = 0n;
  keys.forEach((k, i) => {
    if (tipAccounts.has(k)) paid += BigInt(tx.meta!.postBalances[i]! - tx.meta!.preBalances[i]!);
  });
  return paid;
}

describe("per-request priority fee and tip (issue 22)", () => {
  it("a buy with priority_fee pays exactly that priority fee, and its tip reaches the tip account", async () => {
    const { apiKey } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const plain = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.1" });
    const plainFee = await feeOf(e2e, plain.signature);
    expect(await tipsPaid(plain.signature)).toBe(e2e.localnet.relayTipLamports);

    const own = await trade(e2e, apiKey, {
      action: "buy",
      mint,
      amount: "0.1",
      priority_fee: "0.000123456",
      tip: 0.00025,
    });
    expect(own.confirmed).toBe(true);
    // One signature: 5 000 lamports of base fee, the rest is the priority fee asked for, to the lamport.
    expect(await feeOf(e2e, own.signature)).toBe(5_000n + 123_456n);
    expect(plainFee).not.toBe(5_000n + 123_456n);
    expect(await tipsPaid(own.signature)).toBe(250_000n);
    // Recorded beside the compute-unit price the record keeps.
    const rec = await e2e.get(
      apiKey,
      `/v1/executions/${String((own as unknown as { execution_id: string }).execution_id)}`,
    );
    expect(rec.json()).toMatchObject({
      request: { priority_fee_lamports: "123456", tip_lamports: "250000" },
    });
  });

  it("priority_fee 0 sends no priority fee (PumpPortal's alias priorityFee)", async () => {
    const { apiKey } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const r = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.05", priorityFee: 0 });
    expect(await feeOf(e2e, r.signature)).toBe(5_000n);
  });

  it("a SOL transfer with priority_fee and tip pays them (the reserve counts them)", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 2n });
    const destination = await e2e.fundedWallet(apiKey, 0n);
    const before = await e2e.balance(wallet);
    const r = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: destination,
      amount: "0.5",
      priority_fee: "0.00001",
      tip: "0.0003",
    });
    expect(r.statusCode, r.body).toBe(200);
    const sig = r.json<{ signature: string }>().signature;
    expect(await feeOf(e2e, sig)).toBe(5_000n + 10_000n);
    expect(await tipsPaid(sig)).toBe(300_000n);
    expect(before - (await e2e.balance(wallet))).toBe(500_000_000n + 15_000n + 300_000n);
  });

  it("a dry run shows the chosen priority fee and tip", async () => {
    const { apiKey } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
      priority_fee: "0.0002",
      tip: "0.00003",
      dry_run: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ priority_fee_lamports: "200000", tip_lamports: "30000" });
    const tx = (r.body.transactions as { priority_fee_lamports: string; tip: { lamports: string } }[])[0]!;
    expect(tx.priority_fee_lamports).toBe("200000");
    expect(tx.tip.lamports).toBe("30000");
  });

  it("refuses garbage, negative and over-maximum values with their texts, before anything is sent", async () => {
    const { apiKey } = await e2e.setup({ sol: 1n });
    const { mint } = e2e.localnet.admin.createToken();
    const base = { action: "buy", mint, amount: "0.01" };
    const cases: [Record<string, unknown>, string][] = [
      [{ priority_fee: "abc" }, REQUEST_FEES.priorityFeeInvalid],
      [{ priority_fee: -0.001 }, REQUEST_FEES.priorityFeeInvalid],
      [{ priority_fee: true }, REQUEST_FEES.priorityFeeInvalid],
      [{ priority_fee: "0.0000000001" }, REQUEST_FEES.priorityFeeInvalid],
      [{ priority_fee: "1" }, REQUEST_FEES.priorityFeeTooHigh("1", "0.1")],
      [{ tip: 0 }, REQUEST_FEES.tipInvalid],
      [{ tip: "-1" }, REQUEST_FEES.tipInvalid],
      [{ tip: "0.5" }, REQUEST_FEES.tipTooHigh("0.5", "0.1")],
      [
        { priority_fee: "0.001", priorityFee: "0.002" },
        "priorityFee and priority_fee name the same field and disagree; send one of them",
      ],
    ];
    for (const [extra, detail] of cases) {
      const r = await e2e.post(apiKey, "/v1/trades/execute", { ...base, ...extra });
      expect(r.statusCode, JSON.stringify(extra)).toBe(400);
      expect(r.json<{ detail: string }>().detail).toBe(detail);
    }
    expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  });

  it("a bundle's tip is bounded by TIP_MAX_SOL under either name, and tip is an alias of bundleTip", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 1n });
    const legs = [{ type: "create", name: "Fee", symbol: "FEE", uri: "https://example.com/m.json", wallet }];
    for (const tip of [{ bundleTip: "0.2" }, { tip: "0.2" }]) {
      const r = await e2e.post(apiKey, "/v1/laser/bundle", { accounts: legs, ...tip });
      expect(r.statusCode).toBe(400);
      expect(r.json<{ detail: string }>().detail).toBe(REQUEST_FEES.tipTooHigh("0.2", "0.1"));
    }
    const conflict = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: legs,
      bundleTip: "0.001",
      tip: "0.002",
    });
    expect(conflict.statusCode).toBe(400);
  });

  it("the key's policy refuses a priority fee or tip above its bounds (403 with the rule)", async () => {
    const { apiKey: root } = await e2e.setup({ sol: 1n });
    const { mint } = e2e.localnet.admin.createToken();
    const sub = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    const policy = await callWith(e2e.app, root, "PUT", `/v1/keys/${sub.id}/policy`, {
      max_priority_fee_lamports: 50_000,
      max_tip_lamports: "10000",
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const base = { action: "buy", mint, amount: "0.01" };
    const fee = await callWith(e2e.app, sub.apiKey, "POST", "/v1/trades/execute", {
      ...base,
      priority_fee: "0.0001",
    });
    expect(fee.status).toBe(403);
    expect(fee.body).toEqual({
      detail:
        "policy max_priority_fee_lamports: this trade pays a priority fee of 100000 lamports, at most 50000 allowed",
      rule: "max_priority_fee_lamports",
      code: "keys.policy_refused",
    });
    const tip = await callWith(e2e.app, sub.apiKey, "POST", "/v1/trades/execute", {
      ...base,
      tip: "0.00002",
    });
    expect(tip.status).toBe(403);
    expect(tip.body).toEqual({
      detail: "policy max_tip_lamports: this trade tips 20000 lamports, at most 10000 allowed",
      rule: "max_tip_lamports",
      code: "keys.policy_refused",
    });
    expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  });
});

describe("unknown body fields (issue 22)", () => {
  it("an executed trade answers 200 with a warning per unknown field, and runs", async () => {
    const { apiKey } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const r = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.05",
      slipage: 1,
    });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json<{ warnings: string[]; confirmed: boolean }>();
    expect(body.warnings).toEqual(['unknown field "slipage" ignored']);
    expect(body.confirmed).toBe(true);
  });

  it("names unknown fields inside a bundle leg and a split destination", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 1n });
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/laser/bundle", {
      accounts: [
        { type: "create", name: "W", symbol: "W", uri: "https://example.com/w.json", wallet, colour: 1 },
      ],
      bundleTip: "0.00001",
      dry_run: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual(['unknown field "accounts[0].colour" ignored']);
    const other = await e2e.fundedWallet(apiKey, 0n);
    const s = await callWith(e2e.app, apiKey, "POST", "/v1/sol/split/execute", {
      destinations: [{ wallet: other, note: "x" }],
      dry_run: true,
      extra: true,
    });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.warnings).toEqual([
      'unknown field "destinations[0].note" ignored',
      'unknown field "extra" ignored',
    ]);
  });

  it("a body without unknown fields has no warnings", async () => {
    const { apiKey } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const r = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.05",
      slippage: 1,
    });
    expect(r.statusCode).toBe(200);
    expect("warnings" in r.json<object>()).toBe(false);
  });
});
