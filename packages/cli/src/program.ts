/** The `lasertrade` commands (commander), each a thin layer over @lasertrade/client. */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { Command, Option } from "commander";
import { LaserTrade, type BundleInput, type ExecutionsQuery } from "@lasertrade/client";
import { Context } from "./context.js";
import { guardDelink, outcomeCommands } from "./outcome-commands.js";
import { commaList, parseDestination } from "./args.js";
import { configPath, saveConfig } from "./config-file.js";
import { addKeyCommands } from "./keys-commands.js";
import { runSandbox } from "./sandbox.js";
import { addStreamCommands } from "./stream-command.js";

/** The CLI's version (packages/cli/package.json, read once at start). */
const CLI_VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
import { registerWatch } from "./watch.js";

// IPv4 literal: the service listens on 0.0.0.0, and "localhost" may resolve to ::1 first.
const DEFAULT_URL = "http://127.0.0.1:8080";

export { Context };

type Opts = Record<string, unknown>;
// Fields left undefined are dropped when the body is written (JSON), so options map straight onto fields.
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Options shared by execution commands. */
/** --no-confirm and --idempotency-key on every execution command; --wallet unless it names no single wallet. */
function executionOptions(cmd: Command, o: { wallet?: boolean; confirmHelp?: string } = {}): Command {
  if (o.wallet !== false) {
    cmd.option("-w, --wallet <public_key>", "managed wallet (default: the key's default wallet)");
  }
  return cmd
    .option("--no-confirm", o.confirmHelp ?? "return once sent, without waiting for confirmation")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .option("--dry-run", "check, quote and simulate; print what would be sent without sending (issue 19)");
}

/** `dry_run: true` in the body when --dry-run was given (the answer then describes what would be sent). */
const dryRun = (o: Opts): { dry_run?: true } => (o.dryRun === true ? { dry_run: true } : {});

const callOptions = (o: Opts) => {
  const key = str(o.idempotencyKey);
  return key !== undefined ? { idempotencyKey: key } : {};
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

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

  program
    .command("setup")
    .description("create an API key and its default wallet, and store the key in the config file")
    .option("--url <base_url>", "service URL", env.LASERTRADE_URL ?? DEFAULT_URL)
    .action(async (o: Opts) => {
      // The global --url (also what `setup --url X` parses into) wins over the setup default.
      const baseUrl = program.opts<{ url?: string }>().url ?? String(o.url);
      const result = await LaserTrade.setup(baseUrl);
      const path = configPath(env);
      const backup = await saveConfig(path, { baseUrl, apiKey: result.api_key });
      const { client: _client, ...shown } = result;
      await ctx().print({
        ...shown,
        config_file: path,
        ...(backup !== undefined ? { previous_config: backup } : {}),
      });
      if (!ctx().json)
        process.stderr.write("The API key and wallet_private_key are shown once: keep a copy.\n");
    });

  const wallets = program.command("wallets").description("list and manage the key's wallets");
  wallets
    .command("list", { isDefault: true })
    .description("list the wallets (default): every page, or one page with --limit [--after <id>]")
    .option("--limit <n>", "one page of at most n wallets (1 to 1000)")
    .option("--after <id>", "with --limit: the page after this wallet id (printed under the page)")
    .option("--page-size <n>", "wallets per request while fetching every page", "200")
    .action(async (o: Opts) => {
      const c = ctx();
      const client = await c.client();
      // Issue 23: the list is paged; without --limit every page is fetched.
      if (o.limit === undefined) {
        await c.print(await client.wallets.listAll({ pageSize: Number(o.pageSize) }));
        return;
      }
      const after = o.after !== undefined ? { after: Number(o.after) } : {};
      const page = await client.wallets.page({ limit: Number(o.limit), ...after });
      await c.print(page.wallets);
      if (page.next_after !== null)
        process.stderr.write(
          `more wallets: lasertrade wallets list --limit ${String(o.limit)} --after ${page.next_after}\n`,
        );
    });
  wallets
    .command("create")
    .description("create a wallet (its secret key is shown once)")
    .option("--default", "make it the default wallet")
    .action(async (o: Opts) => {
      const c = ctx();
      await c.print(await (await c.client()).wallets.create({ set_default: o.default === true }));
    });
  wallets
    .command("import <private_key_base58>")
    .description("import a wallet from a base58 64-byte secret key or 32-byte seed (- reads it from stdin)")
    .option("--default", "make it the default wallet")
    .action(async (arg: string, o: Opts) => {
      const c = ctx();
      // "-" keeps the secret out of the shell history and the process list.
      const secret = arg === "-" ? (await readStdin()).trim() : arg;
      await c.print(
        await (
          await c.client()
        ).wallets.import({ private_key_base58: secret, set_default: o.default === true }),
      );
    });
  wallets
    .command("default <public_key>")
    .description("make a wallet the default")
    .action(async (pk: string) => {
      const c = ctx();
      await c.print(await (await c.client()).wallets.setDefault(pk));
    });
  wallets
    .command("delink <public_key>")
    .description("delink a wallet (deletes its encrypted key and history here; the chain is unchanged)")
    .option("--yes", "delink even when the wallet holds SOL or tokens, without asking")
    .action(async (pk: string, o: Opts) => {
      const c = ctx();
      const client = await c.client();
      if (o.yes !== true) await guardDelink(client, pk);
      await c.print(await client.wallets.delink(pk));
    });

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
      .addOption(new Option("--tokens", "amount is token atomic units, not SOL").hideHelp(action === "sell"))
      .action(async (mint: string, amount: string, o: Opts) => {
        const common = {
          mint,
          amount,
          wallet: str(o.wallet),
          slippage: str(o.slippage),
          pool: str(o.pool),
          simulate: o.simulate !== false,
          confirm: o.confirm !== false,
          ...dryRun(o),
        };
        const unit = action === "buy" && o.tokens !== true ? " SOL" : amount.endsWith("%") ? "" : " units";
        await ctx().execute(
          `${action === "buy" ? "buying" : "selling"} ${amount}${unit} of ${mint}`,
          (client) =>
            action === "buy"
              ? client.trades.buy({ ...common, denominated_in_sol: o.tokens !== true }, callOptions(o))
              : client.trades.sell(common, callOptions(o)),
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
              confirm: o.confirm !== false,
              ...dryRun(o),
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
    if (o.dryRun === true) body.dry_run = true;
    await ctx().execute(
      `submitting a bundle of ${body.accounts?.length ?? 0} legs`,
      (client) => client.bundles.submit(body, callOptions(o)),
      o.confirm !== false && body.confirm !== false,
    );
  });

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
                confirm: o.confirm !== false,
                ...dryRun(o),
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
      .description("send SOL (or a token with --mint, amount in atomic units) to any address"),
  )
    .option("--mint <mint>", "token mint (default: native SOL)")
    .action(async (destination: string, amount: string, o: Opts) => {
      const mint = str(o.mint);
      await ctx().execute(
        `sending ${amount} ${mint ?? "SOL"} to ${destination}`,
        (client) =>
          client.sol.transfer(
            {
              destination_wallet: destination,
              amount,
              mint,
              source_wallet: str(o.wallet),
              confirm: o.confirm !== false,
              ...dryRun(o),
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
              confirm: o.confirm !== false,
              ...dryRun(o),
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
            confirm: o.confirm !== false,
            ...dryRun(o),
          },
          callOptions(o),
        ),
      o.confirm !== false,
    );
  });

  // issue 18: warm venue state (`watch` is issue 20's live view of executions)
  const watch = program
    .command("warm")
    .description("mints whose venue state is kept warm (trades skip the read): list, add, remove");
  watch
    .command("list", { isDefault: true })
    .description("list the watched mints (default)")
    .action(async () => {
      const c = ctx();
      await c.print(await (await c.client()).watch.list());
    });
  watch
    .command("add <mints...>")
    .description("watch mints (answers once their subscriptions are live)")
    .action(async (mints: string[]) => {
      const c = ctx();
      await c.print(await (await c.client()).watch.add(mints));
    });
  watch
    .command("remove <mint>")
    .description("stop watching a mint")
    .action(async (mint: string) => {
      const c = ctx();
      await c.print(await (await c.client()).watch.remove(mint));
    });
  outcomeCommands(program, ctx);

  program
    .command("history")
    .description("the key's executions, newest first")
    .option("--kind <kind>", "trade, create, bundle, claim, consolidate, transfer or split")
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

  // Issue 20: live events.
  registerWatch(program, ctx);
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
