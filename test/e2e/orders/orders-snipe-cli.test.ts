/**
 * Snipe orders through the typed client and the CLI (`lasertrade snipe --creator … --max-sol …`) against the
 * listening app: the order is placed open with its rule, the CLI's snipe buys the creator's next token, and a
 * bad flag answers the service's 400 text.
 */
import { describe, expect, it } from "vitest";
import { LaserTrade } from "../../../packages/client/dist/index.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";
import { until } from "../../helpers/warm.js";

const t = useCliE2e("lasertrade-cli-snipe-", { e2e: { warm: true, market: true } });

describe("snipe orders in the client and the CLI", () => {
  it("the client creates one; the CLI places one that buys the creator's next token; a bad flag is refused", async () => {
    const sniper = await t.e2e.setup({ sol: 10n });
    const creator = await t.e2e.setup();
    const client = new LaserTrade({ baseUrl: t.baseUrl, apiKey: sniper.apiKey });
    const made = await client.orders.create({ kind: "snipe", name_pattern: "zzz*", amount: "0.01" });
    expect(made).toMatchObject({ state: "open", kind: "snipe", mint: null });
    expect(await client.orders.cancel(made.id)).toMatchObject({ state: "cancelled" });

    const env = { LASERTRADE_URL: t.baseUrl, LASERTRADE_API_KEY: sniper.apiKey };
    const out = await t.run(
      ["--json", "snipe", "--creator", creator.wallet, "--max-sol", "0.05", "--per-hour", "5"],
      env,
    );
    expect(out.code, out.stderr).toBe(0);
    const placed = JSON.parse(out.stdout) as {
      id: string;
      rule: { creators: string[]; max_per_hour: number };
    };
    expect(placed.rule).toMatchObject({ creators: [creator.wallet], max_per_hour: 5 });
    const res = await t.e2e.post(creator.apiKey, "/v1/laser/create", {
      name: "Cli",
      symbol: "CLI",
      uri: "https://example.test/c.json",
    });
    expect(res.statusCode, res.body).toBe(200);
    const mint = res.json<{ mint: string }>().mint;
    await until(async () => (await t.e2e.tokenBalance(sniper.wallet, mint)) > 0n, "the CLI's snipe to land");

    const bad = await t.run(
      ["--json", "snipe", "--max-sol", "0.05", "--per-hour", "0", "--cashback", "true"],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("max_per_hour must be an integer from 1 to 1000");
  });
});
