/**
 * Issue 19 "dry run" on the localnet, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a trade, a transfer and a bundle with `dry_run: true` read,
 * quote, check and simulate, answer what they would send, and send nothing (balances unchanged, no
 * execution row, no relay call); a policy breach is reported in `policy`, not as 403; a bad flag is a 400.
 */
import { afterAll, describe, expect, it } from "vitest";
import { EXECUTION } from "../../../src/core/errors.js";
import { callWith, createSubKey } from "../../helpers/security.js";
import { external, type E2e } from "../../helpers/e2e.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { useE2e } from "../../helpers/use-e2e.js";

const engines = [
  { name: "sqlite", url: undefined as string | undefined },
  ...(TEST_DATABASE_URL !== undefined ? [{ name: "postgres", url: TEST_DATABASE_URL }] : []),
];

interface DryRunBody {
  dry_run: boolean;
  policy: { allowed: boolean; rule: string | null; detail: string | null };
  transactions: {
    leg: number | null;
    fee_payer: string;
    accounts: string[];
    message_base64: string;
    priority_fee_lamports: string;
    signature_fee_lamports: string;
    tip: { account: string; lamports: string } | null;
    details: Record<string, unknown> | null;
    simulation: { ok: boolean; error: string | null; logs: string[] } | null;
  }[];
}

/** Nothing was sent and nothing recorded since the last reset. */
async function expectNothingSent(e2e: E2e, root: string): Promise<void> {
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  expect(e2e.roundTrips()["bundle.sendBundle"] ?? 0).toBe(0);
  const history = await callWith(e2e.app, root, "GET", "/v1/executions");
  expect(history.body.executions).toEqual([]);
}

describe.each(engines)("dry run ($name)", ({ url }) => {
  const schema = freshSchemaName("dry");
  // Registered before the harness's hooks: after-all hooks run in reverse, so the schema goes after the app.
  afterAll(async () => {
    if (url !== undefined) await dropSchema(url, schema);
  });
  const e2e = useE2e(url === undefined ? {} : { databaseUrl: url, pgSchema: schema });

  it("a trade simulates and describes its transaction without sending or recording", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.2",
      dry_run: true,
    });
    expect(r.status).toBe(200);
    const body = r.body as unknown as DryRunBody;
    expect(body.dry_run).toBe(true);
    expect(body.policy).toEqual({ allowed: true, rule: null, detail: null });
    expect(body.transactions).toHaveLength(1);
    const tx = body.transactions[0]!;
    expect(tx.fee_payer).toBe(wallet);
    expect(tx.accounts).toContain(mint);
    expect(tx.message_base64.length).toBeGreaterThan(100);
    expect(tx.signature_fee_lamports).toBe("5000");
    expect(tx.details).toMatchObject({ mint, venue: "bonding_curve" });
    expect(tx.simulation?.ok).toBe(true);
    expect(tx.simulation?.logs.length).toBeGreaterThan(0);
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(e2e, apiKey);
  });

  it("a SOL transfer in dry run moves nothing", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const destination = external();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: destination,
      amount: "0.5",
      dry_run: "true",
    });
    expect(r.status).toBe(200);
    const body = r.body as unknown as DryRunBody;
    expect(body.transactions).toHaveLength(1);
    expect(body.transactions[0]!.accounts).toContain(destination);
    expect(body.transactions[0]!.simulation?.ok).toBe(true);
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.balance(destination)).toBe(0n);
    await expectNothingSent(e2e, apiKey);
  });

  it("a bundle in dry run describes every leg with the bundle tip and sends no bundle", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/laser/bundle", {
      mint,
      accounts: [{ type: "buy", amount: "0.2" }],
      bundleTip: "0.00001",
      dry_run: true,
    });
    expect(r.status).toBe(200);
    const body = r.body as unknown as DryRunBody;
    expect(body.transactions.map((t) => t.leg)).toEqual([0]);
    expect(body.transactions[0]!.tip?.lamports).toBe("10000");
    expect(body.transactions[0]!.simulation?.ok).toBe(true);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(e2e, apiKey);
  });

  it("a policy breach is reported with its rule (200), the same request without dry_run is a 403", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade", "read"] });
    await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { max_sol_per_execution: "0.1" });
    const before = await e2e.balance(wallet);
    e2e.reset();
    const request = { action: "buy", mint, amount: "0.5" };
    const dry = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      ...request,
      dry_run: true,
    });
    expect(dry.status).toBe(200);
    const body = dry.body as unknown as DryRunBody;
    expect(body.policy.allowed).toBe(false);
    expect(body.policy.rule).toBe("max_sol_per_execution");
    expect(body.transactions).toHaveLength(1);
    await expectNothingSent(e2e, root);
    const real = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", request);
    expect(real.status).toBe(403);
    expect(real.body.rule).toBe("max_sol_per_execution");
    expect(await e2e.balance(wallet)).toBe(before);
  });

  it("a record-time rule (priority fee) is reported too, and nothing is recorded", async () => {
    const { apiKey: root } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { max_priority_fee_lamports: 1 });
    e2e.reset();
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
      dry_run: true,
    });
    expect(r.status).toBe(200);
    const body = r.body as unknown as DryRunBody;
    expect(body.policy).toMatchObject({ allowed: false, rule: "max_priority_fee_lamports" });
    await expectNothingSent(e2e, root);
  });

  it('"dry_run": "x" is a 400 with a detail, before anything is read', async () => {
    const { apiKey } = await e2e.setup({ sol: 1n });
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: external(),
      amount: "0.1",
      dry_run: "x",
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(EXECUTION.dryRunInvalid);
  });
});
