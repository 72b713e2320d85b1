/** `lasertrade webhooks …`: list (paged, issue 29), create, delete the account's webhook endpoints. */
import type { Command } from "commander";
import type { WebhookInput } from "@lasertrade/client";
import type { Context } from "./context.js";
import type { Opts } from "./execution-options.js";

/** Adds `webhooks` and its subcommands (list, create, delete). */
export function addWebhookCommands(program: Command, ctx: () => Context): void {
  const webhooks = program
    .command("webhooks")
    .description("list and manage the account's webhook endpoints (at most MAX_WEBHOOKS_PER_ACCOUNT)");
  webhooks
    .command("list", { isDefault: true })
    .description("list the endpoints (default): every page, or one page with --limit [--after <id>]")
    .option("--limit <n>", "one page of at most n endpoints (1 to 100)")
    .option("--after <id>", "with --limit: the page after this webhook id (printed under the page)")
    .option("--page-size <n>", "endpoints per request while fetching every page", "100")
    .action(async (o: Opts) => {
      const c = ctx();
      const client = await c.client();
      if (o.limit === undefined) {
        await c.print(await client.webhooks.listAll({ pageSize: Number(o.pageSize) }));
        return;
      }
      const after = typeof o.after === "string" ? { after: o.after } : {};
      const page = await client.webhooks.page({ limit: Number(o.limit), ...after });
      await c.print(page.webhooks);
      if (page.next_after !== null)
        process.stderr.write(
          `more webhooks: lasertrade webhooks list --limit ${String(o.limit)} --after ${page.next_after}\n`,
        );
    });
  webhooks
    .command("create <url>")
    .description("register an endpoint; its signing secret (whsec_...) is shown once")
    .option(
      "--types <list>",
      "comma-separated event types (execution.<pending|submitted|confirmed|finalized|failed|timeout|expired>), or * for all",
      "*",
    )
    .option("-w, --wallet <public_key...>", "only events involving these wallets")
    .action(async (url: string, o: Opts) => {
      const c = ctx();
      // The service checks each type (400 naming the known ones); the CLI passes them through as typed.
      const types = (typeof o.types === "string" ? o.types.split(",") : ["*"]) as WebhookInput["types"];
      const wallets = Array.isArray(o.wallet) ? { wallets: o.wallet as string[] } : {};
      await c.print(await (await c.client()).webhooks.create({ url, types, ...wallets }));
    });
  webhooks
    .command("delete <id>")
    .description("delete an endpoint and its deliveries")
    .action(async (id: string) => {
      const c = ctx();
      await (await c.client()).webhooks.delete(id);
      await c.print({ deleted: id });
    });
}
