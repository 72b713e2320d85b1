/**
 * Copy orders through the typed client and the CLI (`lasertrade copy <wallet> --ratio 0.5 …`) against the
 * listening app: the client places one, the CLI's copy buys after the leader's next buy (its record read by
 * `orders.fires` and `lasertrade order fires`), and a bad flag answers the service's 400 text.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { LaserTrade } from "../../../packages/client/dist/index.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";
import { until } from "../../helpers/warm.js";

const t = useCliE2e("lasertrade-cli-copy-", { e2e: { warm: true, market: true } });

describe("copy orders in the client and the CLI", () => {
  it("the client creates one; the CLI places one that copies the leader's next buy; a bad flag is refused", async () => {
    const copier = await t.e2e.setup({ sol: 10n });
    const leader = await t.e2e.setup({ sol: 10n });
    const client = new LaserTrade({ baseUrl: t.baseUrl, apiKey: copier.apiKey });
    const somebody = Keypair.generate().publicKey.toBase58();
    const made = await client.orders.create({
      kind: "copy",
      follow: [somebody],
      amount: "0.01",
      buys_only: true,
    });
    expect(made).toMatchObject({ state: "open", kind: "copy", mint: null });
    expect(await client.orders.cancel(made.id)).toMatchObject({ state: "cancelled" });

    const env = { LASERTRADE_URL: t.baseUrl, LASERTRADE_API_KEY: copier.apiKey };
    const args = [
      "--json",
      "copy",
      leader.wallet,
      "--ratio",
      "0.5",
      "--max-per-token",
      "1",
      "--max-per-day",
      "2",
    ];
    const out = await t.run([...args, "--delay", "0", "--max-move", "50", "--buys-only"], env);
    expect(out.code, out.stderr).toBe(0);
    const placed = JSON.parse(out.stdout) as { id: string; copy: Record<string, unknown> };
    expect(placed.copy).toMatchObject({
      follow: [leader.wallet],
      ratio: "0.5",
      buys_only: true,
      max_per_token: "1",
      max_per_day: "2",
      max_price_move: "50",
    });
    const mint = t.e2e.localnet.admin.createToken().mint;
    const res = await t.e2e.post(leader.apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
      simulate: false,
      confirm: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(async () => (await t.e2e.tokenBalance(copier.wallet, mint)) > 0n, "the CLI's copy to land");
    // The copy's record: the client's page and `lasertrade order fires <id>` show the same decision.
    let page = await client.orders.fires(placed.id);
    await until(async () => {
      page = await client.orders.fires(placed.id);
      return page.fires[0]?.decision === "sent";
    }, "the copy's record settled");
    expect(page.fires).toHaveLength(1);
    expect(page.fires[0]).toMatchObject({
      mint,
      side: "buy",
      followed_wallet: leader.wallet,
      decision: "sent",
    });
    const fires = await t.run(["--json", "order", "fires", placed.id, "--limit", "5"], env);
    expect(fires.code, fires.stderr).toBe(0);
    expect(JSON.parse(fires.stdout)).toEqual(page);

    const bad = await t.run(["--json", "copy", leader.wallet, "--ratio", "0.5", "--sol", "0.1"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("a copy order takes amount or ratio, not both");
  });
});
