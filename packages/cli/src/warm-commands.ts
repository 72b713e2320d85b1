/** `lasertrade warm …`: mints whose venue state is kept warm (issue 18). */
import type { Command } from "commander";
import type { Context } from "./context.js";

/** Adds `warm` and its subcommands (list, add, remove). */
export function addWarmCommands(program: Command, ctx: () => Context): void {
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
}

/** Adds `routes`: the landing routes with their rolling figures. */
export function addRouteCommands(program: Command, ctx: () => Context): void {
  program
    .command("routes")
    .description(
      "the landing routes raced trades go over: landing rate, slots to land, errors, tips, demotion",
    )
    .action(async () => {
      const c = ctx();
      await c.print(await (await c.client()).routes.list());
    });
}
