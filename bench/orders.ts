/**
 * `npm run bench:orders [-- --rounds 40 --orders 10000 --mints 200 --changes 20000 --quick]`: the orders
 * scenario of `npm run bench` (which runs it in a process of its own and appends its table), or alone:
 * 1. trigger latency, an order's against a client that follows /v1/stream and posts the trade itself
 *    (bench/orders-trigger.ts: same relay, same start of the clock; the client in the service's process, and in a
 *    process of its own as an operator's bot on the same machine), p50 / p99 and the ratios, twice: the level
 *    crossed by another account's trade through the service, then by an outside wallet's trade sent straight to
 *    the cluster (orders-cross.ts CrossBy);
 *    and copy latency, a copy order's against a client that follows the wallet on /v1/stream (bench/orders-copy.ts);
 * 2. evaluation per state change with `orders` open orders over `mints` watched mints, a size each (the worst
 *    case for the pruning): wall and process CPU time p50 / p99 (bench/orders-eval-micro.ts);
 * 3. the RSS those orders add (book built, every change evaluated) over the process before them.
 * `--quick`: 3 rounds of each and 2,000 changes (a few seconds). `--store file`: the sandbox's store is a SQLite file
 * with `npm start`'s durability (every commit synced to disk) instead of an in-memory database (the default, as in
 * every earlier report); `--store postgres`: TEST_DATABASE_URL's PostgreSQL, in a schema of its own. Prints a
 * markdown table. Run it with `node --expose-gc` (bench:orders does) for a clean RSS figure.
 */
import { loadavg } from "node:os";
import { percentile } from "../test/harness/stats.js";
import { numberFlag, stringFlag } from "./flags.js";
import { measureEvaluation } from "./orders-eval-micro.js";
import { measureTriggers, withSandbox, type LevelFigures } from "./orders-trigger.js";
import type { CrossBy } from "./orders-cross.js";
import { sandboxStore, STORE_LINES, storeOptions } from "./orders-store.js";
import { measureCopies } from "./orders-copy.js";
import { runScript } from "./process-stats.js";

const ms = (v: number): string => (Number.isNaN(v) ? "-" : v.toFixed(2));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes("--quick");
  // 40: a median of 20 rounds moved by 0.3 ms between runs of the same code on this machine (29 Nov).
  const rounds = numberFlag(argv, "rounds", quick ? 3 : 40);
  // Checked first: a wrong value fails before the evaluation runs.
  const store = sandboxStore(stringFlag(argv, "store", "memory"));
  const loadBefore = load();
  // The evaluation first, in a process nothing else has grown yet: its RSS figure is the orders' own.
  const ev = measureEvaluation({
    orders: numberFlag(argv, "orders", 10_000),
    mints: numberFlag(argv, "mints", 200),
    changes: numberFlag(argv, "changes", quick ? 2_000 : 20_000),
  });
  // One sandbox for both latency benches (its start costs seconds of the smoke test's time).
  const [byService, byOutside, c] = await withSandbox(
    async (s) =>
      [
        await measureTriggers(rounds, s, "service"),
        await measureTriggers(rounds, s, "outside"),
        await measureCopies(rounds, s),
      ] as const,
    storeOptions(store),
  ).finally(() => store.remove());
  const sorted = (l: number[]) => [...l].sort((a, b) => a - b);
  const copy = sorted(c.order);
  const follower = sorted(c.client);
  const p = (l: number[], q: number) => percentile(l, q);
  const ratioOf = (a: number[], b: number[], q: number) => {
    const r = p(a, q) / p(b, q);
    return Number.isFinite(r) ? r.toFixed(2) : "-";
  };
  const CROSSED: Record<CrossBy, string> = {
    service: "crossed by another account's trade through the service",
    outside: "crossed by an outside wallet's trade sent straight to the cluster",
  };
  const triggerRows = (t: LevelFigures, cross: CrossBy): string[] => {
    const order = sorted(t.order);
    const client = sorted(t.client);
    const own = sorted(t.ownProcess);
    return [
      `| trigger latency (${CROSSED[cross]}): first sign of the crossing trade at the service → order's send (ms, ${order.length} rounds, ${t.missed.order} missed) | ${ms(p(order, 50))} | ${ms(p(order, 99))} | ≤ 2 / ≤ 10 |`,
      `| stream-following client: same start → its sell's send (ms, ${client.length} rounds, ${t.missed.client} missed) | ${ms(p(client, 50))} | ${ms(p(client, 99))} | – |`,
      `| order ÷ client | ${ratioOf(order, client, 50)} | ${ratioOf(order, client, 99)} | ≤ 0.3 |`,
      `| the same client in a process of its own (an operator's bot on the same machine): same start → its sell's send (ms, ${own.length} rounds, ${t.missedOwnProcess} missed) | ${ms(p(own, 50))} | ${ms(p(own, 99))} | – |`,
      `| order ÷ client in its own process | ${ratioOf(order, own, 50)} | ${ratioOf(order, own, 99)} | ≤ 0.3 |`,
    ];
  };
  const roundsLine = (t: LevelFigures, cross: CrossBy): string =>
    `Rounds (ms, ${CROSSED[cross]}): order ${t.order.map((v) => v.toFixed(1)).join(", ")}; client ${t.client.map((v) => v.toFixed(1)).join(", ")}; client in its own process ${t.ownProcess.map((v) => v.toFixed(1)).join(", ")}.`;
  const rows = [
    `### Orders (bench/orders.ts; load average ${loadBefore} before, ${load()} after)`,
    "",
    STORE_LINES[store.kind],
    "",
    "| figure | p50 | p99 | goal |",
    "|---|---|---|---|",
    ...triggerRows(byService, "service"),
    ...triggerRows(byOutside, "outside"),
    `| copy: the followed wallet's trade event at the service → the copy order's send (ms, ${copy.length} rounds, ${c.missed.order} missed) | ${ms(p(copy, 50))} | ${ms(p(copy, 99))} | – |`,
    `| copy: a client following the wallet on /v1/stream, same start → its buy's send (ms, ${follower.length} rounds, ${c.missed.client} missed) | ${ms(p(follower, 50))} | ${ms(p(follower, 99))} | – |`,
    `| copy order ÷ client | ${ratioOf(copy, follower, 50)} | ${ratioOf(copy, follower, 99)} | – |`,
    `| evaluation per state change, wall (µs; ${ev.orders} orders over ${ev.mints} mints, a size each, ${ev.changes} changes, ${ev.quotesPerChange.toFixed(1)} quotes per change) | ${ev.wall.p50.toFixed(1)} | ${ev.wall.p99.toFixed(1)} | – / ≤ 50 |`,
    `| evaluation per state change, process CPU (µs) | ${ev.cpu.p50.toFixed(1)} | ${ev.cpu.p99.toFixed(1)} | – / ≤ 50 |`,
    `| RSS of the ${ev.orders} orders: book built / peak while evaluating (MB) | ${ev.bookRssMb.toFixed(1)} | ${ev.peakGrowthMb.toFixed(1)} | ≤ 30 |`,
    "",
    roundsLine(byService, "service"),
    roundsLine(byOutside, "outside"),
    `Copy rounds (ms): order ${c.order.map((v) => v.toFixed(1)).join(", ")}; client ${c.client.map((v) => v.toFixed(1)).join(", ")}.`,
  ];
  process.stdout.write(`${rows.join("\n")}\n`);
}

runScript(main);
