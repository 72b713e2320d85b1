/** `lasertrade keys …`, `lasertrade policy set`, `lasertrade account …`, `lasertrade activity` (issue 19). */
import type { Command } from "commander";
import type { KeyScope, LaserTrade, PolicyInput } from "@lasertrade/client";
import { commaList } from "./args.js";

/** What these commands need of the program's context. */
export interface KeysContext {
  client(): Promise<LaserTrade>;
  print(value: unknown): Promise<void>;
}

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function keyId(arg: string): number {
  if (!/^\d+$/.test(arg)) throw new Error(`key id must be a positive integer (got "${arg}")`);
  return Number(arg);
}

/** The policy body from `policy set` options; options not given are left out (PUT replaces the whole policy). */
export function policyFromOptions(o: Opts): PolicyInput {
  const p: Record<string, unknown> = {};
  const copy = (opt: string, field: string) => {
    const v = str(o[opt]);
    if (v !== undefined) p[field] = v;
  };
  copy("maxSolPerExecution", "max_sol_per_execution");
  copy("maxSolPer24h", "max_sol_per_24h");
  copy("maxPriorityFeeLamports", "max_priority_fee_lamports");
  copy("maxTipLamports", "max_tip_lamports");
  const list = (opt: string, field: string) => {
    const v = str(o[opt]);
    if (v !== undefined) p[field] = commaList(v);
  };
  list("venues", "venues");
  list("mintsAllow", "mints_allow");
  list("mintsDeny", "mints_deny");
  list("destinationsAllow", "destinations_allow");
  return p as PolicyInput;
}

/** Adds the policy options (`policy set`, `keys create`) to `cmd`. */
function withPolicyOptions(cmd: Command): Command {
  return cmd
    .option("--max-sol-per-execution <sol>", "SOL a single request may move")
    .option("--max-sol-per-24h <sol>", "SOL over a rolling 24 h, fees, tips and rent included")
    .option("--max-priority-fee-lamports <n>", "priority fee per transaction")
    .option("--max-tip-lamports <n>", "tip per request")
    .option("--venues <list>", "bonding_curve,launchswap")
    .option("--mints-allow <list>", "only these mints")
    .option("--mints-deny <list>", "never these mints")
    .option(
      "--destinations-allow <list>",
      "outside addresses transfers may pay (own wallets always allowed)",
    );
}

/** Adds the key, policy, account and activity commands to `program`. */
export function addKeyCommands(program: Command, ctx: () => KeysContext): void {
  const keys = program.command("keys").description("scoped sub-keys of this account (needs the keys scope)");
  keys
    .command("list", { isDefault: true })
    .description("the account's keys (no secrets)")
    .action(async () => {
      const c = ctx();
      await c.print(await (await c.client()).keys.list());
    });
  withPolicyOptions(
    keys
      .command("create <name>")
      .description(
        "create a sub-key within this key's own powers; its api_key is printed once " +
          "(policy options: its starting policy, else this key's own)",
      )
      .requiredOption(
        "--scopes <list>",
        "comma-separated: read, trade, create, transfer, wallets, keys, build",
      )
      .option("--wallets <list>", "only these wallets (comma-separated public keys)")
      .option("--expires-at <iso>", "ISO 8601 date-time with zone"),
  ).action(async (name: string, o: Opts) => {
    const c = ctx();
    const wallets = str(o.wallets);
    const expires = str(o.expiresAt);
    const policy = policyFromOptions(o);
    const created = await (
      await c.client()
    ).keys.create({
      name,
      scopes: commaList(String(o.scopes)) as KeyScope[],
      ...(wallets !== undefined ? { wallets: commaList(wallets) } : {}),
      ...(expires !== undefined ? { expires_at: expires } : {}),
      ...(Object.keys(policy).length > 0 ? { policy } : {}),
    });
    await c.print(created);
  });
  for (const action of ["revoke", "freeze", "unfreeze"] as const) {
    keys
      .command(`${action} <id>`)
      .description(`${action} a key`)
      .action(async (id: string) => {
        const c = ctx();
        await c.print(await (await c.client()).keys[action](keyId(id)));
      });
  }

  withPolicyOptions(
    program
      .command("policy")
      .description("spend policies of keys")
      .command("set <key_id>")
      .description("replace the key's policy with these options (none: clear it)"),
  ).action(async (id: string, o: Opts) => {
    const c = ctx();
    await c.print(await (await c.client()).keys.setPolicy(keyId(id), policyFromOptions(o)));
  });

  const account = program.command("account").description("account-wide stop (root key only)");
  for (const action of ["freeze", "unfreeze"] as const) {
    account
      .command(action)
      .description(action === "freeze" ? "refuse every key of the account" : "lift the account freeze")
      .action(async () => {
        const c = ctx();
        await c.print(await (await c.client()).account[action]());
      });
  }

  program
    .command("activity")
    .description("the account's activity log, newest first")
    .option("--after <cursor>", "next_cursor of the previous page")
    .option("--limit <n>", "page size (1 to 200)", "50")
    .action(async (o: Opts) => {
      const c = ctx();
      const after = str(o.after);
      await c.print(
        await (
          await c.client()
        ).activity.list({ limit: String(o.limit), ...(after !== undefined ? { after } : {}) }),
      );
    });
}
