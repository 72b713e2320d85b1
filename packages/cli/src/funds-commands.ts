/** `lasertrade cashback`, `send`, `split` and `consolidate`: the executions that move SOL and tokens. */
import type { Command } from "commander";
import { commaList, parseDestination } from "./args.js";
import type { Context } from "./context.js";
import { callOptions, executionFields, executionOptions, str, type Opts } from "./execution-options.js";

/** Adds `cashback`, `send`, `split` and `consolidate`. */
export function addFundsCommands(program: Command, ctx: () => Context): void {
  executionOptions(
    program
      .command("cashback [wallets...]")
      .description("show claimable cashback (default wallet, or the wallets named); --claim claims it"),
  )
    .option("--claim", "claim the cashback of --wallet (default wallet otherwise)")
    .action(async (list: string[], o: Opts) => {
      const c = ctx();
      if (o.claim === true) {
        await c.execute(
          "claiming cashback",
          (client) =>
            client.cashback.claim(
              {
                wallet: str(o.wallet),
                ...executionFields(o),
              },
              callOptions(o),
            ),
          o.confirm !== false,
        );
        return;
      }
      const named = [...list, ...(str(o.wallet) !== undefined ? [str(o.wallet)!] : [])];
      await c.print(await (await c.client()).cashback.check(named.length > 0 ? { wallets: named } : {}));
    });

  executionOptions(
    program
      .command("send <destination> <amount>")
      .description(
        "send SOL (or a token with --mint, amount in atomic units, or whole tokens with --whole-tokens) to any address",
      ),
  )
    .option("--mint <mint>", "token mint (default: native SOL)")
    .option(
      "--whole-tokens",
      "with --mint: amount is whole tokens (e.g. 1.5), converted with the mint's decimals",
    )
    .action(async (destination: string, amount: string, o: Opts) => {
      const mint = str(o.mint);
      const quantity = o.wholeTokens === true ? { amount_tokens: amount } : { amount };
      await ctx().execute(
        `sending ${amount} ${mint ?? "SOL"} to ${destination}`,
        (client) =>
          client.sol.transfer(
            {
              destination_wallet: destination,
              ...quantity,
              mint,
              source_wallet: str(o.wallet),
              ...executionFields(o),
            },
            callOptions(o),
          ),
        o.confirm !== false,
      );
    });

  executionOptions(
    program
      .command("split <destinations...>")
      .description(
        "split SOL to up to 5 destinations: ADDRESS (equal share), ADDRESS=SOL or ADDRESS=PERCENT%",
      ),
  )
    .option("--total-percent <percent>", "share of the spendable balance to distribute (default 100)")
    .action(async (destinations: string[], o: Opts) => {
      const parsed = destinations.map(parseDestination);
      await ctx().execute(
        `splitting to ${parsed.length} destinations`,
        (client) =>
          client.sol.split(
            {
              destinations: parsed,
              source_wallet: str(o.wallet),
              total_percent: str(o.totalPercent),
              ...executionFields(o),
            },
            callOptions(o),
          ),
        o.confirm !== false,
      );
    });

  executionOptions(
    program
      .command("consolidate <destination>")
      .description("sweep SOL from managed wallets into <destination> (default: every other wallet)")
      .option("--from <wallets>", "comma-separated source wallets"),
    { wallet: false },
  ).action(async (destination: string, o: Opts) => {
    const from = str(o.from);
    await ctx().execute(
      `consolidating into ${destination}`,
      (client) =>
        client.sol.consolidate(
          {
            destination_wallet: destination,
            source_wallets: from !== undefined ? commaList(from) : undefined,
            ...executionFields(o),
          },
          callOptions(o),
        ),
      o.confirm !== false,
    );
  });
}
