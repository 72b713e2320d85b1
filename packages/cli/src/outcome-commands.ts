/**
 * Issue 22's commands: `status` (one execution), `balance` (a wallet's SOL and tokens), `quote` (a trade's price
 * without a wallet), the delink guard.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import type { LaserTrade } from "@lasertrade/client";
import type { Context } from "./context.js";
import { statusExitCode } from "./outcome.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Opts = Record<string, unknown>;

/** Asks a yes/no question on the terminal; false without a terminal (scripts pass --yes). */
async function confirmPrompt(question: string): Promise<boolean> {
  if (process.stdin.isTTY !== true) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Issue 22: the only copy of a key may be here; a wallet that holds SOL or tokens is delinked only on a yes. */
export async function guardDelink(client: LaserTrade, pk: string): Promise<void> {
  const b = await client.wallets.balances(pk);
  const held = b.tokens.filter((t) => t.amount !== "0");
  if (BigInt(b.lamports) === 0n && held.length === 0) return;
  const what = [`${b.sol} SOL`, ...held.map((t) => `${t.ui_amount} of ${t.mint}`)].join(", ");
  process.stderr.write(`wallet ${pk} holds ${what}; delinking deletes its key here.\n`);
  if (!(await confirmPrompt("delink it anyway? [y/N] ")))
    throw new Error("not delinked (pass --yes to delink a wallet that holds SOL or tokens)");
}

/** Adds `status`, `balance` and `quote`. */
export function outcomeCommands(program: Command, ctx: () => Context): void {
  program
    .command("status <id_or_signature>")
    .description("one execution by its execution_id (or a transaction signature): status, error, fill")
    .option("--wait <seconds>", "wait up to this long (0 to 60) for a final status", "0")
    .action(async (ref: string, o: Opts) => {
      const c = ctx();
      const client = await c.client();
      const wait = Number(o.wait);
      const found = UUID.test(ref)
        ? await client.executions.get(ref, { wait })
        : await client.executions.bySignature(ref);
      if (found === undefined) throw new Error(`no execution of this API key carries signature ${ref}`);
      await c.print(found);
      process.exitCode = statusExitCode(found.status);
    });

  program
    .command("balance [public_key]")
    .description("SOL and every token of a wallet (default: the key's default wallet)")
    .action(async (pk: string | undefined) => {
      const c = ctx();
      const client = await c.client();
      const wallet = pk ?? (await client.wallets.list()).find((w) => w.is_default)?.public_key;
      if (wallet === undefined) throw new Error("this key has no wallet");
      await c.print(await client.wallets.balances(wallet));
    });

  program
    .command("quote <mint> <side> <amount>")
    .description(
      "price a buy (<amount> SOL, or token units with --tokens) or a sell (<amount> token units) without trading",
    )
    .option("--tokens", "a buy's amount is token atomic units, not SOL")
    .option("--slippage <percent>", "slippage percent of the bounds (default 2)")
    .option("--pool <address>", "quote on this launchswap pool")
    .action(async (mint: string, side: string, amount: string, o: Opts) => {
      // The service answers any other side with its own 400; saying it here saves the round trip.
      if (side !== "buy" && side !== "sell") throw new Error("side must be buy or sell");
      const c = ctx();
      const client = await c.client();
      await c.print(
        await client.trades.quote({
          mint,
          side,
          amount,
          ...(o.tokens === true ? { denominated_in_sol: false } : {}),
          ...(typeof o.slippage === "string" ? { slippage: o.slippage } : {}),
          ...(typeof o.pool === "string" ? { pool: o.pool } : {}),
        }),
      );
    });
}
