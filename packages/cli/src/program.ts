/** The `lasertrade` commands (commander), each a thin layer over @lasertrade/client. */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { Context } from "./context.js";
import type { Opts } from "./execution-options.js";
import { addFundsCommands } from "./funds-commands.js";
import { addHistoryCommand } from "./history-command.js";
import { addKeyCommands } from "./keys-commands.js";
import { addPositionCommands } from "./positions-commands.js";
import { outcomeCommands } from "./outcome-commands.js";
import { runSandbox } from "./sandbox.js";
import { addStreamCommands } from "./stream-command.js";
import { addTradeCommands } from "./trade-commands.js";
import { addOutsideCommands } from "./outside-commands.js";
import { addNonceCommands } from "./nonce-commands.js";
import { addOutsideLegCommands } from "./outside-leg-commands.js";
import { addWalletCommands, addSetupCommand } from "./wallet-commands.js";
import { addRouteCommands, addWarmCommands } from "./warm-commands.js";
import { addOrderCommands } from "./order-commands.js";
import { registerWatch } from "./watch.js";
import { addWebhookCommands } from "./webhook-commands.js";

/** The CLI's version (packages/cli/package.json, read once at start). */
const CLI_VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

export { Context };

/** Builds the program; `ctx` is made once the global options are parsed. */
export function buildProgram(env: NodeJS.ProcessEnv = process.env): Command {
  const program = new Command("lasertrade")
    .description("Trade launch tokens from managed wallets through a lasertrade service")
    .option("--json", "print results as JSON (for scripts)")
    .option("--url <base_url>", "service URL (overrides LASERTRADE_URL and the config file)")
    .option("--api-key <key>", "API key (overrides LASERTRADE_API_KEY and the config file)")
    .version(CLI_VERSION, "-V, --version", "print the CLI version")
    .showHelpAfterError();
  const ctx = (): Context => {
    const o = program.opts<{ json?: boolean; url?: string; apiKey?: string }>();
    return new Context(o.json === true, env, {
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
    });
  };
  // The registration order is the order of `lasertrade --help`.
  addSetupCommand(program, ctx, env);
  addWalletCommands(program, ctx);
  addTradeCommands(program, ctx);
  addOutsideCommands(program, ctx);
  addNonceCommands(program, ctx);
  addOutsideLegCommands(program, ctx);
  addFundsCommands(program, ctx);
  addWarmCommands(program, ctx);
  addRouteCommands(program, ctx);
  addOrderCommands(program, ctx);
  outcomeCommands(program, ctx);
  addHistoryCommand(program, ctx);
  addPositionCommands(program, ctx);

  // Issue 20: live events; issue 29: webhook endpoints (paged list).
  registerWatch(program, ctx);
  addWebhookCommands(program, ctx);
  // Issue 19: keys, policies, account freeze, activity log.
  addKeyCommands(program, ctx);
  addStreamCommands(program, ctx);

  program
    .command("sandbox")
    .description(
      "start the service in sandbox mode (local cluster), fund the default wallet, print a mint to buy",
    )
    .option("--port <port>", "service port", env.PORT ?? "8080")
    .option("--localnet-port <port>", "localnet RPC port", env.LOCALNET_PORT ?? "8899")
    .action(async (o: Opts) => {
      await runSandbox({
        port: Number(o.port),
        localnetPort: Number(o.localnetPort),
        json: ctx().json,
        env,
      });
    });

  return program;
}
