/**
 * `lasertrade stream new-tokens | trades <mint...> | account <wallet...>`: follows GET /v1/stream and
 * prints one line per event, as aligned columns for people or one JSON object per line with --json.
 */
import type { Command } from "commander";
import type { LaserTrade, MarketStream, StreamEvent } from "@lasertrade/client";
import { toJson } from "./render.js";

/** What the stream commands need from the CLI context. */
export interface StreamContext {
  json: boolean;
  client(): Promise<LaserTrade>;
}

const COLUMNS: [string, number][] = [
  ["time", 8],
  ["type", 9],
  ["side", 4],
  ["mint", 44],
  ["trader", 44],
  ["sol", 14],
  ["tokens", 18],
  ["mcap_sol", 14],
  ["signature", 88],
];

/** SOL text of a lamport amount, trailing zeros trimmed. */
function sol(lamports: bigint): string {
  const whole = lamports / 1_000_000_000n;
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return frac === "" ? whole.toString() : `${whole}.${frac}`;
}

/** One table row of an event. */
export function eventRow(e: StreamEvent): string[] {
  const time = new Date(e.timestamp * 1000).toISOString().slice(11, 19);
  if (e.type === "trade")
    return [
      time,
      e.type,
      e.side,
      e.mint,
      e.trader,
      sol(e.sol_amount),
      e.token_amount.toString(),
      e.market_cap_sol,
      e.signature,
    ];
  if (e.type === "new_token")
    return [
      time,
      e.type,
      "-",
      e.mint,
      e.creator,
      "-",
      `${e.symbol} ${e.name}`,
      e.market_cap_sol,
      e.signature,
    ];
  if (e.type === "complete") return [time, e.type, "-", e.mint, e.trader, "-", "-", "-", e.signature];
  return [
    time,
    e.type,
    "-",
    e.mint,
    e.trader,
    sol(e.sol_amount),
    e.token_amount.toString(),
    "-",
    e.signature,
  ];
}

function line(cells: string[]): string {
  return cells
    .map((c, i) => c.padEnd(COLUMNS[i]![1]))
    .join(" ")
    .trimEnd();
}

async function follow(
  ctx: () => StreamContext,
  subscribe: (s: MarketStream) => Promise<void>,
): Promise<void> {
  const c = ctx();
  const stream = await (await c.client()).stream();
  await subscribe(stream);
  process.on("SIGINT", () => stream.close());
  if (!c.json) process.stdout.write(`${line(COLUMNS.map(([name]) => name))}\n`);
  for await (const e of stream) {
    process.stdout.write(`${c.json ? toJson(e, 0) : line(eventRow(e))}\n`);
  }
  const { code, reason } = await stream.closed;
  if (code !== 1000) throw new Error(`stream closed by the server: ${code} ${reason}`);
}

/** Registers `stream` and its three subcommands on `program`. */
export function addStreamCommands(program: Command, ctx: () => StreamContext): void {
  const stream = program
    .command("stream")
    .description("follow the market live (GET /v1/stream): one line per event, Ctrl-C to stop");
  stream
    .command("new-tokens")
    .description("every token created on the launch curve")
    .option("--migrations", "also every migration of a curve to its pool")
    .action(async (o: { migrations?: boolean }) =>
      follow(ctx, async (s) => {
        await s.subscribeNewToken();
        if (o.migrations === true) await s.subscribeMigration();
      }),
    );
  stream
    .command("trades <mints...>")
    .description("trades of these mints on the curve and the pool")
    .action(async (mints: string[]) => follow(ctx, (s) => s.subscribeTokenTrade(mints)));
  stream
    .command("account <wallets...>")
    .description("trades by these wallets (any wallet on the chain)")
    .action(async (wallets: string[]) => follow(ctx, (s) => s.subscribeAccountTrade(wallets)));
}
