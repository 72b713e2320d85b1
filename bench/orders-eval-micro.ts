/**
 * `npx tsx bench/orders-eval-micro.ts [--orders 10000] [--mints 200] [--changes 20000] [--sizes distinct|shared]`:
 * the order engine's evaluation per state change, in process, no I/O: `orders` open orders (take-profit,
 * stop-loss, trailing stop, limit buy; levels away from the price so none fires) spread over `mints` mints,
 * then `changes` state changes, each a curve that moved by a small trade, evaluated as the engine does it
 * (OrderBook.evaluate quoting each size of the mint with the trade's math). Prints the wall time per
 * evaluation (p50 / p99 / max, µs; after as many unmeasured changes, so the JIT has done its work) and the RSS
 * the orders cost (needs --expose-gc for a clean figure). bench/orders.ts runs it as part of the orders scenario.
 * `--sizes distinct` gives every order its own size (one quote per order: the worst case); `shared` gives the
 * orders of a mint 5 sizes. `naive` quotes every size on every change (the book without its pruning), to
 * compare.
 */
import { OrderBook, type BookOrder } from "../src/domain/orders/book.js";
import type { OrderSpec, Trigger } from "../src/domain/orders/model.js";
import { observeVenue, stateKey, type OrderSize } from "../src/domain/orders/observe.js";
import type { VenueState } from "../src/domain/trade/quote.js";
import { numberFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

const E18 = 10n ** 18n;
const PRICE = (30n * E18) / 1_073_000_000n; // about the fresh curve's price, SOL × 10^18 per whole token

function curve(quote: bigint): VenueState {
  const k = 1_073_000_000_000_000n * 30_000_000_000n;
  return {
    venue: "bonding_curve",
    curve: {
      virtualTokenReserves: k / quote,
      virtualQuoteReserves: quote,
      realTokenReserves: 793_100_000_000_000n,
      realQuoteReserves: quote - 30_000_000_000n,
      complete: false,
    },
    fees: { protocolFeeBps: 95n, creatorFeeBps: 30n },
  };
}

const trig = (name: Trigger["name"], direction: "above" | "below", price: bigint): Trigger => ({
  name,
  direction,
  level: { kind: "price", price },
  asked: {},
});

function order(i: number, mint: string, units: bigint): BookOrder {
  const k = i % 4;
  const base: Omit<OrderSpec, "kind" | "side" | "triggers"> = {
    mint,
    amount: { kind: "tokens", units },
    amountText: units.toString(),
    sizeUnits: units,
    trailHundredths: null,
    entryPrice: PRICE,
    slippageBps: 200n,
    priorityFeeLamports: null,
    tipLamports: null,
    maxRetries: 2,
  };
  const spec: OrderSpec =
    k === 0
      ? { ...base, kind: "take_profit", side: "sell", triggers: [trig("take_profit", "above", PRICE * 10n)] }
      : k === 1
        ? { ...base, kind: "stop_loss", side: "sell", triggers: [trig("stop_loss", "below", PRICE / 10n)] }
        : k === 2
          ? { ...base, kind: "trailing_stop", side: "sell", triggers: [], trailHundredths: 9_000n }
          : {
              ...base,
              kind: "limit",
              side: "buy",
              amount: { kind: "sol", lamports: units / 1000n },
              sizeUnits: null,
              triggers: [trig("limit", "below", PRICE / 10n)],
            };
  const size: OrderSize =
    spec.side === "buy" ? { side: "buy", lamports: units / 1000n } : { side: "sell", units };
  return {
    id: `o${i}`,
    mint,
    version: 1,
    attempt: 0,
    spec,
    size,
    peak: k === 2 ? PRICE : null,
    expiresAtMs: null,
  };
}

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/** What one run of the evaluation measured (µs per state change; MB). */
export interface EvalFigures {
  orders: number;
  mints: number;
  changes: number;
  shared: boolean;
  naive: boolean;
  wall: { p50: number; p99: number; max: number };
  cpu: { p50: number; p99: number };
  quotesPerChange: number;
  fired: number;
  /** RSS after building the book minus before (after a GC when --expose-gc is on). */
  bookRssMb: number;
  /** The process's highest RSS seen while building and evaluating, minus the RSS before the book. */
  peakGrowthMb: number;
}

/**
 * Builds a book of `orders` over `mints` and evaluates `changes` state changes (after as many unmeasured ones,
 * so the figures are the optimized code's), each timed in wall and process CPU time.
 */
export function measureEvaluation(o: {
  orders: number;
  mints: number;
  changes: number;
  shared?: boolean;
  naive?: boolean;
}): EvalFigures {
  const { orders, mints, changes } = o;
  const shared = o.shared === true;
  const naive = o.naive === true;
  const names = Array.from({ length: mints }, (_, i) => `mint${i}`);
  const before = rss();
  let peak = before;
  const book = new OrderBook({ prune: !naive });
  for (let i = 0; i < orders; i++) {
    const units = shared
      ? 1_000_000_000n * BigInt(1 + (Math.floor(i / mints) % 5))
      : 1_000_000_000n + BigInt(i) * 1_000n;
    book.add(order(i, names[i % mints]!, units));
  }
  const after = rss();
  const states = Array.from({ length: 64 }, (_, i) => curve(30_000_000_000n + BigInt(i) * 10_000_000n));
  const times: number[] = [];
  // CPU time of the process per evaluation (getrusage): what the machine's other load does not inflate.
  const cpu: number[] = [];
  let fired = 0;
  let quotes = 0;
  for (let c = -changes; c < changes; c++) {
    const k = c + changes;
    const venue = states[k % states.length]!;
    const q0 = quotes;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    // The state's key is part of the cost, as in the engine (OrderEngine.evaluate).
    const { crossed } = book.evaluate(
      names[k % mints]!,
      (size) => {
        quotes++;
        return observeVenue(size, venue, 6);
      },
      stateKey(venue, 6),
    );
    const wall = Number(process.hrtime.bigint() - t0) / 1000;
    const c1 = process.cpuUsage(c0);
    fired += crossed.length;
    if (c < 0) {
      quotes = q0;
      continue;
    }
    times.push(wall);
    cpu.push(c1.user + c1.system);
    if ((c & 1023) === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const q = (p: number, of: number[]): number => of[Math.min(of.length - 1, Math.floor(p * of.length))]!;
  const mb = (b: number): number => b / 1024 / 1024;
  return {
    orders,
    mints,
    changes,
    shared,
    naive,
    wall: { p50: q(0.5, times), p99: q(0.99, times), max: q(1, times) },
    cpu: { p50: q(0.5, cpu), p99: q(0.99, cpu) },
    quotesPerChange: quotes / changes,
    fired,
    bookRssMb: mb(after - before),
    peakGrowthMb: mb(peak - before),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const f = measureEvaluation({
    orders: numberFlag(argv, "orders", 10_000),
    mints: numberFlag(argv, "mints", 200),
    changes: numberFlag(argv, "changes", 20_000),
    shared: argv.includes("shared"),
    naive: argv.includes("naive"),
  });
  console.log(
    `orders-eval: ${f.orders} orders over ${f.mints} mints (${f.orders / f.mints} per mint, ${f.shared ? "5 sizes" : "a size each"}${f.naive ? ", naive" : ""}), ` +
      `${f.changes} state changes: evaluation p50 ${f.wall.p50.toFixed(1)} µs, p99 ${f.wall.p99.toFixed(1)} µs, max ${f.wall.max.toFixed(1)} µs; ` +
      `CPU p50 ${f.cpu.p50.toFixed(1)} µs, p99 ${f.cpu.p99.toFixed(1)} µs; ` +
      `quotes per change ${f.quotesPerChange.toFixed(1)}; fired ${f.fired}; RSS +${f.bookRssMb.toFixed(1)} MB for the book, ` +
      `peak +${f.peakGrowthMb.toFixed(1)} MB`,
  );
}

if (process.argv[1]?.endsWith("orders-eval-micro.ts")) runScript(main);
