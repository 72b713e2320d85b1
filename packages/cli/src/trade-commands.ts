/** `lasertrade buy`, `sell`, `create` and `bundle`: the trading executions. */
import { readFile } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { BundleInput } from "@lasertrade/client";
import type { Context } from "./context.js";
import {
  callOptions,
  dryRun,
  executionFields,
  executionOptions,
  str,
  type Opts,
} from "./execution-options.js";

/** Adds `buy`, `sell`, `create` and `bundle`. */
export function addTradeCommands(program: Command, ctx: () => Context): void {
  const trade = (action: "buy" | "sell") =>
    executionOptions(
      program
        .command(`${action} <mint> <amount>`)
        .description(
          action === "buy"
            ? "buy a token for <amount> SOL (or token units with --tokens)"
            : "sell <amount> token units, or a percentage such as 50%",
        ),
    )
      .option("--slippage <percent>", "slippage percent (default 2)")
      .option("--pool <address>", "trade on this launchswap pool")
      .option("--no-simulate", "send without simulating first")
      .option(
        "--routes <names>",
        'race the trade over these routes (comma-separated, or "all"), one variant each under the wallet\'s nonce',
      )
      .option("--mev-protect", "race only over routes that protect from sandwiching")
      .addOption(new Option("--tokens", "amount is token atomic units, not SOL").hideHelp(action === "sell"))
      .addOption(
        new Option(
          "--whole-tokens",
          "amount is whole tokens (e.g. 1.5), converted with the mint's decimals (sent as amount_tokens)",
        ).hideHelp(action === "buy"),
      )
      .action(async (mint: string, amount: string, o: Opts) => {
        const whole = action === "sell" && o.wholeTokens === true;
        const common = {
          mint,
          amount,
          wallet: str(o.wallet),
          slippage: str(o.slippage),
          pool: str(o.pool),
          simulate: o.simulate !== false,
          ...(typeof o.routes === "string"
            ? { routes: o.routes === "all" ? ("all" as const) : o.routes.split(",") }
            : {}),
          ...(o.mevProtect === true ? { mev_protect: true } : {}),
          ...executionFields(o),
        };
        const unit =
          action === "buy" && o.tokens !== true
            ? " SOL"
            : amount.endsWith("%")
              ? ""
              : whole
                ? " tokens"
                : " units";
        await ctx().execute(
          `${action === "buy" ? "buying" : "selling"} ${amount}${unit} of ${mint}`,
          (client) =>
            action === "buy"
              ? client.trades.buy({ ...common, denominated_in_sol: o.tokens !== true }, callOptions(o))
              : client.trades.sell(
                  whole ? { ...common, amount: undefined, amount_tokens: amount } : common,
                  callOptions(o),
                ),
          common.confirm,
        );
      });
  trade("buy");
  trade("sell");

  executionOptions(
    program
      .command("create <name> <symbol> <uri>")
      .description("launch a token (server-generated mint), optionally with a developer buy"),
  )
    .option("--initial-buy <sol>", "atomic developer buy in SOL")
    .option("--slippage <percent>", "slippage percent of the initial buy")
    .option("--mayhem", "mayhem mode")
    .action(async (name: string, symbol: string, uri: string, o: Opts) => {
      await ctx().execute(
        `creating ${symbol}`,
        (client) =>
          client.tokens.create(
            {
              name,
              symbol,
              uri,
              wallet: str(o.wallet),
              initial_buy: str(o.initialBuy),
              slippage: str(o.slippage),
              ...(o.mayhem === true ? { mayhem_mode: true } : {}),
              ...executionFields(o),
            },
            callOptions(o),
          ),
        o.confirm !== false,
      );
    });

  executionOptions(
    program
      .command("bundle <file>")
      .description("submit a bundle described by a JSON file (the body of POST /v1/laser/bundle)"),
    { wallet: false, confirmHelp: "return once the relay accepts the bundle" },
  ).action(async (file: string, o: Opts) => {
    const body = JSON.parse(await readFile(file, "utf8")) as BundleInput;
    if (o.confirm === false) body.confirm = false;
    // --tip replaces the file's bundleTip (sending both would be two names for one field).
    const { tip, ...fields } = dryRun(o);
    Object.assign(body, fields, tip !== undefined ? { bundleTip: tip } : {});
    await ctx().execute(
      `submitting a bundle of ${body.accounts?.length ?? 0} legs`,
      (client) => client.bundles.submit(body, callOptions(o)),
      o.confirm !== false && body.confirm !== false,
    );
  });
}
