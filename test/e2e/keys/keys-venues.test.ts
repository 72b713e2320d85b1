/**
 * Issue 19 `venues` policy on the venue an execution actually uses (localnet, SQLite): a trade or bundle on a
 * migrated token names no pool, is routed to launchswap by the curve's state, and a key limited to
 * bonding_curve is refused after routing and before anything is signed (403 rule venues, nothing sent,
 * nothing recorded, an activity row); a dry run reports it in `policy`. A key limited to launchswap cannot
 * trade a curve token nor create one.
 */
import { describe, expect, it } from "vitest";
import { callWith, createSubKey, expectRefusal } from "../../helpers/security.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** A token whose curve completed and migrated into its canonical pool. */
function migratedToken(): string {
  const { mint } = e2e.localnet.admin.createToken();
  e2e.localnet.admin.complete(mint);
  e2e.localnet.admin.migrate(mint);
  return mint;
}

/** Nothing reached a relay and the account has no execution. */
async function expectNothingSent(root: string): Promise<void> {
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  expect(e2e.roundTrips()["bundle.sendBundle"] ?? 0).toBe(0);
  const history = await callWith(e2e.app, root, "GET", "/v1/executions");
  expect(history.body.executions).toEqual([]);
}

const LAUNCHSWAP_REFUSED = "policy venues: the launchswap venue is not allowed for this key";
const CURVE_REFUSED = "policy venues: the bonding_curve venue is not allowed for this key";

describe("venues policy after routing", () => {
  it("a curve-only key: a migrated token's trade and bundle are refused (403 venues), a dry run reports it", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const curveToken = e2e.localnet.admin.createToken().mint;
    const mint = migratedToken();
    const bot = await createSubKey(e2e.app, root, { name: "curve-bot", scopes: ["trade", "create", "read"] });
    const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, {
      venues: ["bonding_curve"],
    });
    expect(put.status).toBe(200);
    const before = await e2e.balance(wallet);
    e2e.reset();

    const trade = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
    });
    expectRefusal(trade, 403, "venues", "trade");
    expect(trade.body).toEqual({ code: "keys.policy_refused", detail: LAUNCHSWAP_REFUSED, rule: "venues" });

    const bundle = await callWith(e2e.app, bot.apiKey, "POST", "/v1/laser/bundle", {
      mint,
      accounts: [{ type: "buy", amount: "0.1" }],
      bundleTip: "0.00001",
    });
    expect(bundle.body).toEqual({ detail: LAUNCHSWAP_REFUSED, rule: "venues", code: "keys.policy_refused" });
    expect(bundle.status).toBe(403);

    const dry = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
      dry_run: true,
    });
    expect(dry.status).toBe(200);
    expect(dry.body.policy).toEqual({ allowed: false, rule: "venues", detail: LAUNCHSWAP_REFUSED });
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(root);

    const activity = await callWith(e2e.app, root, "GET", `/v1/activity?key_id=${bot.id}`);
    const rows = activity.body.activity as { route: string; status: number; rule: string | null }[];
    expect(rows.map((r) => [r.route, r.status, r.rule])).toEqual([
      ["/v1/laser/bundle", 403, "venues"],
      ["/v1/trades/execute", 403, "venues"],
    ]);

    // The curve token routes to the curve: the same key trades it.
    const ok = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint: curveToken,
      amount: "0.1",
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.venue).toBe("bonding_curve");
  });

  it("a launchswap-only key: a curve token's trade and a create are refused, a migrated token trades", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const curveToken = e2e.localnet.admin.createToken().mint;
    const mint = migratedToken();
    const bot = await createSubKey(e2e.app, root, { name: "pool-bot", scopes: ["trade", "create", "read"] });
    await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { venues: ["launchswap"] });
    const before = await e2e.balance(wallet);
    e2e.reset();

    const trade = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint: curveToken,
      amount: "0.1",
    });
    expect([trade.status, trade.body]).toEqual([
      403,
      { detail: CURVE_REFUSED, rule: "venues", code: "keys.policy_refused" },
    ]);
    // A create starts its token on the curve (decided from the body).
    const create = await callWith(e2e.app, bot.apiKey, "POST", "/v1/laser/create", {
      name: "A",
      symbol: "A",
      uri: "https://example.com/a.json",
    });
    expect([create.status, create.body]).toEqual([
      403,
      { detail: CURVE_REFUSED, rule: "venues", code: "keys.policy_refused" },
    ]);
    const dryCreate = await callWith(e2e.app, bot.apiKey, "POST", "/v1/laser/create", {
      name: "A",
      symbol: "A",
      uri: "https://example.com/a.json",
      dry_run: true,
    });
    expect(dryCreate.status).toBe(200);
    expect(dryCreate.body.policy).toEqual({ allowed: false, rule: "venues", detail: CURVE_REFUSED });
    expect(await e2e.balance(wallet)).toBe(before);
    await expectNothingSent(root);

    const ok = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.venue).toBe("launchswap");
  });
});
