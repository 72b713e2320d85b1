/**
 * `lasertrade order …` and `lasertrade orders`: orders the service runs itself. Levels: `+50%` / `-20%` are
 * percent from the entry price (the wallet's position's average entry unless --entry), a bare number is a price
 * in SOL per whole token.
 */
import type { Command } from "commander";
import type { OrderInput, OrderListQuery } from "@lasertrade/client";
import type { Context } from "./context.js";

interface OrderOpts {
  amount?: string;
  wallet?: string;
  slippage?: string;
  priorityFee?: string;
  tip?: string;
  entry?: string;
  solOut?: string;
  expiresAt?: string;
  dryRun?: boolean;
  idempotencyKey?: string;
}

interface SnipeOpts extends OrderOpts {
  maxSol: string;
  creator?: string[];
  name?: string;
  symbol?: string;
  mayhem?: string;
  cashback?: string;
  minInitialBuy?: string;
  maxInitialBuy?: string;
  perHour?: string;
}

interface CopyOpts extends OrderOpts {
  ratio?: string;
  sol?: string;
  buysOnly?: boolean;
  sellsOnly?: boolean;
  sellSizing?: string;
  maxPerToken?: string;
  maxPerDay?: string;
  delay?: string;
  maxMove?: string;
}

/** The body of `lasertrade copy <wallet...>` (the service answers a 400 naming the rule for a bad value). */
export function copyBody(wallets: string[], o: CopyOpts): Record<string, unknown> {
  const delay = o.delay === undefined ? undefined : Number(o.delay);
  return {
    kind: "copy",
    follow: wallets,
    ...common({ ...o, amount: o.sol }),
    ...(o.ratio !== undefined ? { ratio: o.ratio } : {}),
    ...(o.sellSizing !== undefined ? { sell_sizing: o.sellSizing } : {}),
    ...(o.buysOnly === true ? { buys_only: true } : {}),
    ...(o.sellsOnly === true ? { sells_only: true } : {}),
    ...(o.maxPerToken !== undefined ? { max_per_token: o.maxPerToken } : {}),
    ...(o.maxPerDay !== undefined ? { max_per_day: o.maxPerDay } : {}),
    ...(delay !== undefined ? { delay_ms: Number.isNaN(delay) ? o.delay : delay } : {}),
    ...(o.maxMove !== undefined ? { max_price_move: o.maxMove } : {}),
  };
}

const flagOf = (v: string | undefined): boolean | string | undefined =>
  v === "true" ? true : v === "false" ? false : v;

/** The body of `lasertrade snipe` (the service answers a 400 naming the rule for a bad value). */
export function snipeBody(o: SnipeOpts): Record<string, unknown> {
  const n = o.perHour === undefined ? undefined : Number(o.perHour);
  return {
    kind: "snipe",
    ...common({ ...o, amount: o.maxSol }),
    ...(o.creator !== undefined ? { creators: o.creator } : {}),
    ...(o.name !== undefined ? { name_pattern: o.name } : {}),
    ...(o.symbol !== undefined ? { symbol_pattern: o.symbol } : {}),
    ...(o.mayhem !== undefined ? { mayhem: flagOf(o.mayhem) } : {}),
    ...(o.cashback !== undefined ? { cashback: flagOf(o.cashback) } : {}),
    ...(o.minInitialBuy !== undefined ? { min_initial_buy: o.minInitialBuy } : {}),
    ...(o.maxInitialBuy !== undefined ? { max_initial_buy: o.maxInitialBuy } : {}),
    ...(n !== undefined ? { max_per_hour: Number.isNaN(n) ? o.perHour : n } : {}),
  };
}

/** A level argument: `+50%` / `-20%` / `15%` → percent, anything else → price (SOL per whole token). */
export function levelOf(arg: string): Record<string, string> {
  const t = arg.trim();
  return t.endsWith("%") ? { percent: t.slice(0, -1) } : { price: t };
}

function common(o: OrderOpts): Record<string, unknown> {
  return {
    ...(o.amount !== undefined ? { amount: o.amount } : {}),
    ...(o.wallet !== undefined ? { wallet: o.wallet } : {}),
    ...(o.slippage !== undefined ? { slippage: o.slippage } : {}),
    ...(o.priorityFee !== undefined ? { priority_fee: o.priorityFee } : {}),
    ...(o.tip !== undefined ? { tip: o.tip } : {}),
    ...(o.entry !== undefined ? { entry_price: o.entry } : {}),
    ...(o.expiresAt !== undefined ? { expires_at: o.expiresAt } : {}),
    ...(o.dryRun === true ? { dry_run: true } : {}),
  };
}

function withOptions(c: Command): Command {
  // A level such as -20% is an argument, not an unknown option.
  return c
    .allowUnknownOption()
    .option(
      "--amount <amount>",
      'sells: token atomic units or a percentage (default "100%"); limit buys: SOL',
    )
    .option("--wallet <public_key>", "managed wallet (default: the key's default wallet)")
    .option("--slippage <percent>", "slippage bound of the trade it sends")
    .option("--priority-fee <sol>", "priority fee per transaction (SOL)")
    .option("--tip <sol>", "relay tip (SOL)")
    .option(
      "--entry <price>",
      "entry price of percent levels (SOL per whole token; default the wallet's position's average entry)",
    )
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .option("--expires-at <iso>", "an open order expires then (ISO 8601)")
    .option("--dry-run", "answer what the order would do now; store nothing");
}

/** Adds `order` (tp, sl, trail, limit, bracket, get, fires, cancel) and `orders`. */
export function addOrderCommands(program: Command, ctx: () => Context): void {
  const order = program
    .command("order")
    .description("orders the service runs: tp, sl, trail, limit, bracket, migration, get, fires, cancel");
  const place = async (body: Record<string, unknown>, o: OrderOpts): Promise<void> => {
    const c = ctx();
    const options = o.idempotencyKey !== undefined ? { idempotencyKey: o.idempotencyKey } : {};
    await c.print(await (await c.client()).orders.create(body as OrderInput, options));
  };
  withOptions(order.command("tp <mint> <level>").description("take profit: +50% from entry, or a price"))
    .option("--sol-out <sol>", "instead of a level: sell when the amount gets at least this much SOL")
    .action(async (mint: string, level: string, o: OrderOpts) =>
      place(
        {
          kind: "take_profit",
          mint,
          ...(o.solOut !== undefined ? { sol_out: o.solOut } : levelOf(level)),
          ...common(o),
        },
        o,
      ),
    );
  withOptions(order.command("sl <mint> <level>").description("stop loss: -20% from entry, or a price"))
    .option("--sol-out <sol>", "instead of a level: sell when the amount gets at most this much SOL")
    .action(async (mint: string, level: string, o: OrderOpts) =>
      place(
        {
          kind: "stop_loss",
          mint,
          ...(o.solOut !== undefined ? { sol_out: o.solOut } : levelOf(level)),
          ...common(o),
        },
        o,
      ),
    );
  withOptions(
    order
      .command("trail <mint> <percent>")
      .description("trailing stop: sell on a fall of percent from the highest price"),
  ).action(async (mint: string, percent: string, o: OrderOpts) =>
    place({ kind: "trailing_stop", mint, trail_percent: percent.replace(/%$/, ""), ...common(o) }, o),
  );
  withOptions(
    order
      .command("limit <side> <mint> <price> [amount]")
      .description("limit buy (amount in SOL) or sell at a price"),
  ).action(async (side: string, mint: string, price: string, amount: string | undefined, o: OrderOpts) =>
    place({ kind: "limit", side, mint, price, ...common(o), ...(amount !== undefined ? { amount } : {}) }, o),
  );
  withOptions(
    order.command("bracket <mint> <tp> <sl>").description("take profit and stop loss, one cancels the other"),
  ).action(async (mint: string, tp: string, sl: string, o: OrderOpts) =>
    place({ kind: "bracket", mint, take_profit: levelOf(tp), stop_loss: levelOf(sl), ...common(o) }, o),
  );
  withOptions(
    order
      .command("migration <mint>")
      .description("sell (or --side buy) once the mint has migrated to its pool"),
  )
    .option("--side <side>", "sell (default) or buy")
    .action(async (mint: string, o: OrderOpts & { side?: string }) =>
      place(
        { kind: "on_migration", mint, ...(o.side !== undefined ? { side: o.side } : {}), ...common(o) },
        o,
      ),
    );
  order
    .command("get <id>")
    .description("one order with its state and executions")
    .action(async (id: string) => {
      const c = ctx();
      await c.print(await (await c.client()).orders.get(id));
    });
  order
    .command("fires <id>")
    .description(
      "a snipe or copy order's record per trigger: each followed trade (or token) and what the order did, newest first",
    )
    .option("--limit <n>", "page size, 1 to 500 (default 100)")
    .option("--after <cursor>", "next_cursor of the previous page")
    .action(async (id: string, o: { limit?: string; after?: string }) => {
      const c = ctx();
      const query = {
        ...(o.limit !== undefined ? { limit: o.limit } : {}),
        ...(o.after !== undefined ? { after: o.after } : {}),
      };
      await c.print(await (await c.client()).orders.fires(id, query));
    });
  order
    .command("cancel <id>")
    .description("cancel an open order")
    .action(async (id: string) => {
      const c = ctx();
      await c.print(await (await c.client()).orders.cancel(id));
    });
  program
    .command("snipe")
    .description("buy each new token whose creation matches a rule, once per token (the order stays open)")
    .requiredOption("--max-sol <sol>", "SOL spent on each matching token")
    .option("--creator <address...>", "only tokens created by one of these addresses")
    .option("--name <glob>", "only tokens whose name matches (case-insensitive; * any run, ? one character)")
    .option("--symbol <glob>", "only tokens whose symbol matches")
    .option("--mayhem <bool>", "only tokens whose mayhem flag is true or false")
    .option("--cashback <bool>", "only tokens whose cashback flag is true or false")
    .option("--min-initial-buy <sol>", "only tokens whose creation bought at least this SOL")
    .option("--max-initial-buy <sol>", "only tokens whose creation bought at most this SOL")
    .option("--per-hour <n>", "at most this many buys in any hour")
    .option("--wallet <public_key>", "managed wallet (default: the key's default wallet)")
    .option("--slippage <percent>", "slippage bound of each buy")
    .option("--priority-fee <sol>", "priority fee per transaction (SOL)")
    .option("--tip <sol>", "relay tip (SOL)")
    .option("--expires-at <iso>", "the order expires then (ISO 8601)")
    .option("--dry-run", "answer the order and the policy; store nothing")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (o: SnipeOpts) => place(snipeBody(o), o));
  program
    .command("copy <wallet...>")
    .description(
      "mirror the buys and sells of these wallets, once per trade of theirs (the order stays open)",
    )
    .option("--ratio <ratio>", "size each copy as their size × ratio (buys: their SOL)")
    .option("--sol <sol>", "spend this SOL on each copied buy (instead of --ratio)")
    .option(
      "--sell-sizing <how>",
      "percent (default: sell the share of the position they sold of theirs) or ratio (their tokens × ratio)",
    )
    .option("--buys-only", "copy their buys only")
    .option("--sells-only", "copy their sells only")
    .option("--max-per-token <sol>", "buy at most this SOL of one token")
    .option("--max-per-day <sol>", "buy at most this SOL in any 24 hours")
    .option("--delay <ms>", "wait this many milliseconds after their trade")
    .option("--max-move <percent>", "skip a copy when the price moved more than this since their trade")
    .option("--wallet <public_key>", "managed wallet (default: the key's default wallet)")
    .option("--slippage <percent>", "slippage bound of each trade")
    .option("--priority-fee <sol>", "priority fee per transaction (SOL)")
    .option("--tip <sol>", "relay tip (SOL)")
    .option("--expires-at <iso>", "the order expires then (ISO 8601)")
    .option("--dry-run", "answer the order and the policy; store nothing")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (wallets: string[], o: CopyOpts) => place(copyBody(wallets, o), o));
  program
    .command("orders")
    .description("list this account's orders, newest first")
    .option(
      "--state <state>",
      "only orders in this state (open, triggered, filled, failed, cancelled, expired)",
    )
    .option("--mint <mint>", "only orders on this mint")
    .action(async (o: { state?: string; mint?: string }) => {
      const c = ctx();
      // The service checks the state against its list (a 400 naming the allowed ones).
      const query: OrderListQuery = {
        ...(o.state !== undefined ? { state: o.state as OrderListQuery["state"] } : {}),
        ...(o.mint !== undefined ? { mint: o.mint } : {}),
      };
      await c.print(await (await c.client()).orders.list(query));
    });
}
