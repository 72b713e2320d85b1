/**
 * Issue 29 finding 14 as an attacker (or a careless client) would try it, on the localnet: a misspelt safety
 * switch (`"dryRun": true`) was ignored with a warning and the trade executed. Each probe asserts the 400
 * naming the right field and that nothing moved on chain (balances, token balance, no send, no execution row).
 */
import { describe, expect, it } from "vitest";
import { REQUEST_FEES } from "../../src/core/errors.js";
import { callWith } from "../helpers/security.js";
import { external, type E2e } from "../helpers/e2e.js";
import { useE2e } from "../helpers/use-e2e.js";

/** Nothing was sent since the last reset and nothing recorded for the key. */
async function expectNothingSent(e2e: E2e, apiKey: string): Promise<void> {
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  expect(e2e.roundTrips()["bundle.sendBundle"] ?? 0).toBe(0);
  const history = await callWith(e2e.app, apiKey, "GET", "/v1/executions");
  expect(history.body.executions).toEqual([]);
}

describe("misspelt safety switches (issue 29 finding 14)", () => {
  const e2e = useE2e();

  it.each(["dryRun", "DRY_RUN", "dry-run", "DryRun"])(
    'a buy with "%s": true is refused and buys nothing',
    async (field) => {
      const { apiKey, wallet } = await e2e.setup({ sol: 10n });
      const { mint } = e2e.localnet.admin.createToken();
      const before = await e2e.balance(wallet);
      e2e.reset();
      const r = await callWith(e2e.app, apiKey, "POST", "/v1/trades/execute", {
        action: "buy",
        mint,
        amount: "0.2",
        [field]: true,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: "http.misspelt_switch",
        detail: REQUEST_FEES.misspeltSwitch(field, "dry_run"),
      });
      expect(await e2e.balance(wallet)).toBe(before);
      expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
      await expectNothingSent(e2e, apiKey);
    },
  );

  it('a SOL transfer with "dryRun": "true" is refused and moves nothing', async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const destination = external();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: destination,
      amount: "0.5",
      dryRun: "true",
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(REQUEST_FEES.misspeltSwitch("dryRun", "dry_run"));
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.balance(destination)).toBe(0n);
    await expectNothingSent(e2e, apiKey);
  });

  it('a trade with "Simulate": true is refused (not run unsimulated) and buys nothing', async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await callWith(e2e.app, apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.2",
      simulate: false,
      Simulate: true,
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(REQUEST_FEES.misspeltSwitch("Simulate", "simulate"));
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(e2e, apiKey);
  });

  it('the real switch still works: "dry_run": true answers a dry run and sends nothing', async () => {
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
    expect(r.body.dry_run).toBe(true);
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(e2e, apiKey);
  });
});
