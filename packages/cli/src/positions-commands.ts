/** `lasertrade positions` and `lasertrade pnl`: the positions ledger kept from the fills, and its PnL. */
import type { Command } from "commander";
import type { PnlQuery, PositionsQuery } from "@lasertrade/client";
import type { Context } from "./context.js";
import { str, type Opts } from "./execution-options.js";

/** Lamports as SOL text (exact, trailing zeros trimmed); "-" for null. */
function sol(lamports: string | null | undefined): string {
  if (lamports === null || lamports === undefined) return "-";
  const n = BigInt(lamports);
  const abs = n < 0n ? -n : n;
  const frac = (abs % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${n < 0n ? "-" : ""}${abs / 1_000_000_000n}${frac === "" ? "" : `.${frac}`}`;
}

/** Adds `positions` and `pnl`. */
export function addPositionCommands(program: Command, ctx: () => Context): void {
  program
    .command("positions [wallet] [mint]")
    .description(
      "positions (wallet × mint) with cost basis and PnL; one position when wallet and mint are given",
    )
    .option("-w, --wallet <public_key>", "only this wallet's positions")
    .option("--mint <mint>", "only positions of this mint")
    .option("--status <status>", "open or closed")
    .option("--limit <n>", "page size (1 to 500)", "100")
    .option("--after <cursor>", "next page: the cursor printed after the previous one")
    .action(async (wallet: string | undefined, mint: string | undefined, o: Opts) => {
      const c = ctx();
      const client = await c.client();
      if (wallet !== undefined && mint !== undefined)
        return c.print(await client.positions.get(wallet, mint));
      const page = await client.positions.list({
        // Text, as the query carries it: the service checks the range (1 to 500).
        limit: str(o.limit),
        wallet: str(o.wallet) ?? wallet,
        mint: str(o.mint),
        status: str(o.status) as PositionsQuery["status"],
        after: str(o.after),
      });
      if (c.json) return c.print(page);
      await c.print(
        page.positions.map((p) => ({
          wallet: p.wallet,
          mint: p.mint,
          status: p.status,
          tokens: p.tokens_held,
          cost_sol: sol(p.cost_basis_lamports),
          value_sol: sol(p.liquidation_value_lamports),
          unrealized_sol: sol(p.unrealized_pnl_lamports),
          realized_sol: sol(p.realized_pnl_lamports),
          trades: p.trade_count,
        })),
      );
      if (page.next_cursor !== null) process.stdout.write(`more: --after ${page.next_cursor}\n`);
    });

  program
    .command("pnl")
    .description("realized and unrealized PnL, fees, tips, volume and trade counts")
    .option("--day", "one row per UTC day")
    .option("--by-mint", "one row per mint")
    .option("--by-wallet", "one row per wallet")
    .option("--from <when>", "start (inclusive): YYYY-MM-DD or an RFC 3339 time")
    .option("--to <when>", "end (exclusive): YYYY-MM-DD or an RFC 3339 time")
    .action(async (o: Opts) => {
      const c = ctx();
      const group: PnlQuery["group_by"] =
        o.day === true ? "day" : o.byMint === true ? "mint" : o.byWallet === true ? "wallet" : undefined;
      const report = await (await c.client()).pnl({ group_by: group, from: str(o.from), to: str(o.to) });
      if (c.json) return c.print(report);
      const row = (key: string, f: typeof report.total) => ({
        key,
        realized_sol: sol(f.realized_pnl_lamports),
        unrealized_sol: sol(f.unrealized_pnl_lamports),
        fees_sol: sol(f.fee_lamports),
        tips_sol: sol(f.tip_lamports),
        volume_sol: sol(f.volume_lamports),
        trades: f.trade_count,
      });
      await c.print([...(report.groups ?? []).map((g) => row(g.key, g)), row("total", report.total)]);
    });
}
