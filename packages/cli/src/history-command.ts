/** `lasertrade history`: the key's executions, newest first. */
import type { Command } from "commander";
import type { ExecutionsQuery } from "@lasertrade/client";
import type { Context } from "./context.js";
import { str, type Opts } from "./execution-options.js";

/** Adds `history`. */
export function addHistoryCommand(program: Command, ctx: () => Context): void {
  program
    .command("history")
    .description("the key's executions, newest first")
    .option("--kind <kind>", "trade, create, bundle, claim, consolidate, transfer or split")
    .option("--status <status>", "pending, submitted, confirmed, finalized, failed, timeout or expired")
    .option("-w, --wallet <public_key>", "only this wallet's executions")
    .option("--limit <n>", "page size (1 to 200)", "20")
    .option("--offset <n>", "rows to skip", "0")
    .action(async (o: Opts) => {
      const c = ctx();
      const page = await (
        await c.client()
      ).executions.list({
        limit: Number(o.limit),
        offset: Number(o.offset),
        kind: str(o.kind) as ExecutionsQuery["kind"],
        status: str(o.status) as ExecutionsQuery["status"],
        wallet: str(o.wallet),
      });
      if (c.json) return c.print(page);
      const rows = page.executions.map((e) => ({
        created_at: e.created_at,
        kind: e.kind,
        status: e.status,
        wallet: e.wallet,
        signature: e.signatures[0] ?? "-",
      }));
      await c.print(rows);
      if (page.next_offset !== null) process.stdout.write(`more: --offset ${page.next_offset}\n`);
    });
}
