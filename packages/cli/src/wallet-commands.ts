/** `lasertrade setup` (a key, its default wallet, the config file) and `lasertrade wallets …`. */
import type { Command } from "commander";
import { LaserTrade } from "@lasertrade/client";
import type { Context } from "./context.js";
import { configPath, saveConfig } from "./config-file.js";
import type { Opts } from "./execution-options.js";
import { guardDelink } from "./outcome-commands.js";

// IPv4 literal: the service listens on 0.0.0.0, and "localhost" may resolve to ::1 first.
const DEFAULT_URL = "http://127.0.0.1:8080";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Adds `setup`; the global --url (read from `program`) wins over its own default. */
export function addSetupCommand(program: Command, ctx: () => Context, env: NodeJS.ProcessEnv): void {
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
}

/** Adds `wallets` and its subcommands (list, create, import, show, default, delink). */
export function addWalletCommands(program: Command, ctx: () => Context): void {
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
    .command("show <public_key>")
    .description("show one wallet with its durable nonce account (address, whether it exists, rent, value)")
    .action(async (pk: string) => {
      const c = ctx();
      await c.print(await (await c.client()).wallets.get(pk));
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
}
