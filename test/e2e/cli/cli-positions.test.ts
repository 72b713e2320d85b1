/**
 * Issue 33, `lasertrade positions` and `lasertrade pnl --day` as a user runs them (the built bin against the
 * listening app): the same figures as the HTTP API after a buy and a partial sell; a bad value exits 1 naming
 * the allowed ones.
 */
import { describe, expect, it } from "vitest";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const cli = useCliE2e("lasertrade-cli-positions-");

describe("lasertrade positions and pnl", () => {
  it("lists positions, shows one, and sums PnL per day", async () => {
    const setup = await cli.run(["--json", "--url", cli.baseUrl, "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    const { wallet_public_key: wallet } = JSON.parse(setup.stdout) as { wallet_public_key: string };
    cli.e2e.localnet.admin.fund(wallet, 5_000_000_000n);
    const { mint } = cli.e2e.localnet.admin.createToken();
    expect((await cli.run(["buy", mint, "0.05"])).code).toBe(0);
    expect((await cli.run(["sell", mint, "50%"])).code).toBe(0);

    const list = await cli.run(["--json", "positions", "--status", "open"]);
    expect(list.code, list.stderr).toBe(0);
    const page = JSON.parse(list.stdout) as {
      positions: { mint: string; tokens_held: string; trade_count: number }[];
    };
    expect(page.positions.map((p) => [p.mint, p.trade_count])).toEqual([[mint, 2]]);
    expect(BigInt(page.positions[0]!.tokens_held)).toBe(await cli.e2e.tokenBalance(wallet, mint));

    const one = await cli.run(["--json", "positions", wallet, mint]);
    expect(one.code, one.stderr).toBe(0);
    const p = JSON.parse(one.stdout) as {
      realized_pnl_lamports: string;
      last_trade_at: string;
      valuation: { source: string };
    };
    expect(["cache", "read"]).toContain(p.valuation.source);

    const table = await cli.run(["positions"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(mint);

    const day = await cli.run(["--json", "pnl", "--day"]);
    expect(day.code, day.stderr).toBe(0);
    const report = JSON.parse(day.stdout) as {
      group_by: string;
      total: { realized_pnl_lamports: string; trade_count: number };
      groups: { key: string }[];
    };
    expect(report.group_by).toBe("day");
    expect(report.total).toMatchObject({ realized_pnl_lamports: p.realized_pnl_lamports, trade_count: 2 });
    expect(report.groups.map((g) => g.key)).toEqual([p.last_trade_at.slice(0, 10)]);
    const human = await cli.run(["pnl", "--day"]);
    expect(human.stdout).toContain("total");

    const bad = await cli.run(["positions", "--status", "live"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("status must be one of open, closed");
  });
});
