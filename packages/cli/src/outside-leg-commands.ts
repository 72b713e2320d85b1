/**
 * `lasertrade build-create` and `lasertrade build-bundle` (issue 32): a token creation or a bundle built for
 * outside wallets. They print what the service built (the creation signed by its fresh mint; one unsigned
 * transaction per bundle leg); `lasertrade submit` sends them back signed (`--bundle` for a bundle's legs).
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { BundleBuildInput } from "@lasertrade/client";
import type { Context } from "./context.js";
import { callOptions, str, type Opts } from "./execution-options.js";

/** Adds `build-create` and `build-bundle`. */
export function addOutsideLegCommands(program: Command, ctx: () => Context): void {
  program
    .command("build-create <name> <symbol> <uri>")
    .description("build a token creation for an outside wallet (prints the transaction, signed by the mint)")
    .requiredOption("--public-key <address>", "the outside wallet: creator, payer and signer")
    .option("--initial-buy <sol>", "atomic developer buy in SOL")
    .option("--slippage <percent>", "slippage percent of the initial buy")
    .option("--mayhem", "mayhem mode")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (name: string, symbol: string, uri: string, o: Opts) => {
      const client = await ctx().client();
      const built = await client.tokens.build(
        {
          public_key: String(o.publicKey),
          name,
          symbol,
          uri,
          initial_buy: str(o.initialBuy),
          slippage: str(o.slippage),
          ...(o.mayhem === true ? { mayhem_mode: true } : {}),
        },
        callOptions(o),
      );
      await ctx().print(built);
    });

  program
    .command("build-bundle <file>")
    .description(
      "build a bundle for outside wallets from a JSON file (the body of POST /v1/laser/bundle/build): one transaction per leg",
    )
    .option("--public-key <address>", "the outside wallet of every leg that names none")
    .option("--tip <sol>", "the bundle tip in SOL (replaces the file's bundleTip)")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (file: string, o: Opts) => {
      const body = JSON.parse(await readFile(file, "utf8")) as BundleBuildInput;
      const publicKey = str(o.publicKey);
      const tip = str(o.tip);
      if (publicKey !== undefined) body.public_key = publicKey;
      if (tip !== undefined) body.bundleTip = tip;
      const client = await ctx().client();
      await ctx().print(await client.bundles.build(body, callOptions(o)));
    });
}
