/**
 * The book's pruning (quote only the sizes a state can matter to) against the naive evaluation (quote every
 * size): on random books and random sequences of curve and pool states, both fire the same orders with the same
 * triggers and move the same trailing peaks, state after state.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBook, type BookOrder } from "../../../../src/domain/orders/book.js";
import type { OrderSpec, Trigger } from "../../../../src/domain/orders/model.js";
import { observeVenue, type OrderSize } from "../../../../src/domain/orders/observe.js";
import { priceOf } from "../../../../src/domain/orders/rules.js";
import type { VenueState } from "../../../../src/domain/trade/quote.js";

const MINT = "M";
const TOKENS = 1_073_000_000_000_000n;

function curveAt(quote: bigint, protocolFeeBps: bigint, creatorFeeBps: bigint): VenueState {
  const k = TOKENS * 30_000_000_000n;
  return {
    venue: "bonding_curve",
    curve: {
      virtualTokenReserves: k / quote,
      virtualQuoteReserves: quote,
      realTokenReserves: 793_100_000_000_000n - (TOKENS - k / quote),
      realQuoteReserves: quote - 30_000_000_000n,
      complete: false,
    },
    fees: { protocolFeeBps, creatorFeeBps },
  };
}

function poolAt(quote: bigint, lpFeeBps: bigint): VenueState {
  const k = 206_900_000_000_000n * 84_000_000_000n;
  return {
    venue: "launchswap",
    reserves: { baseReserve: k / quote, quoteReserve: quote, virtualQuoteReserves: 0n },
    fees: { lpFeeBps, protocolFeeBps: 5n, creatorFeeBps: 5n },
  };
}

/** The price of `size` on the first state, for levels near where the sequence goes. */
function basePrice(size: OrderSize, venue: VenueState): bigint {
  return observeVenue(size, venue, 6)?.price ?? priceOf(30n, 1_073_000n, 6)!;
}

const trig = (name: Trigger["name"], direction: "above" | "below", price: bigint): Trigger => ({
  name,
  direction,
  level: { kind: "price", price },
  asked: {},
});

interface Drawn {
  kind: number;
  amount: bigint;
  /** Level as per-mille of the first state's price. */
  permille: bigint;
  trail: bigint;
}

function bookOrder(i: number, d: Drawn, first: VenueState): BookOrder {
  const buy = d.kind === 3;
  const size: OrderSize = buy
    ? { side: "buy", lamports: d.amount }
    : { side: "sell", units: d.amount * 1000n };
  const level = (basePrice(size, first) * d.permille) / 1000n;
  const base: Omit<OrderSpec, "kind" | "side" | "triggers"> = {
    mint: MINT,
    amount: buy ? { kind: "sol", lamports: d.amount } : { kind: "tokens", units: d.amount * 1000n },
    amountText: "x",
    sizeUnits: buy ? null : d.amount * 1000n,
    trailHundredths: null,
    entryPrice: null,
    slippageBps: 200n,
    priorityFeeLamports: null,
    tipLamports: null,
    maxRetries: 2,
  };
  const spec: OrderSpec =
    d.kind === 0
      ? { ...base, kind: "take_profit", side: "sell", triggers: [trig("take_profit", "above", level)] }
      : d.kind === 1
        ? { ...base, kind: "stop_loss", side: "sell", triggers: [trig("stop_loss", "below", level)] }
        : d.kind === 2
          ? { ...base, kind: "trailing_stop", side: "sell", triggers: [], trailHundredths: d.trail }
          : { ...base, kind: "limit", side: "buy", triggers: [trig("limit", "below", level)] };
  return {
    id: `o${i}`,
    mint: MINT,
    version: 1,
    spec,
    size,
    peak: d.kind === 2 ? level : null,
    expiresAtMs: null,
  };
}

const drawn = fc.record({
  kind: fc.integer({ min: 0, max: 3 }),
  // Sizes from dust to a large share of the reserves (sells: × 1000 units).
  amount: fc.oneof(
    fc.bigInt({ min: 1n, max: 10_000n }),
    fc.bigInt({ min: 10_000n, max: 50_000_000n }),
    fc.bigInt({ min: 50_000_000n, max: 200_000_000_000n }),
  ),
  permille: fc.bigInt({ min: 850n, max: 1150n }),
  trail: fc.bigInt({ min: 1n, max: 3_000n }),
});

/** Runs both books over the states; returns each state's fires and peak moves, as sorted text. */
function run(prune: boolean, orders: Drawn[], states: VenueState[]): string[] {
  const book = new OrderBook({ prune });
  orders.forEach((d, i) => book.add(bookOrder(i, d, states[0]!)));
  const out: string[] = [];
  for (const venue of states) {
    const { crossed, peaks } = book.evaluate(MINT, (size) => observeVenue(size, venue, 6));
    for (const c of crossed) book.remove(c.order.id);
    out.push(
      [...crossed.map((c) => `${c.order.id}:${c.trigger}`), ...peaks.map((p) => `${p.id}^${p.peak}`)]
        .sort()
        .join(","),
    );
  }
  return out;
}

describe("the book's pruning of sizes", () => {
  it("fires exactly what quoting every size fires, on random curve and pool sequences", () => {
    fc.assert(
      fc.property(
        fc.array(drawn, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.array(fc.bigInt({ min: 25_000_000_000n, max: 36_000_000_000n }), { minLength: 1, maxLength: 12 }),
        fc.bigInt({ min: 0n, max: 300n }),
        (orders, pool, quotes, bps) => {
          const states = quotes.map((q) =>
            pool ? poolAt(q * 2n + 20_000_000_000n, bps) : curveAt(q, bps, bps / 3n),
          );
          const pruned = run(true, orders, states);
          expect(pruned).toEqual(run(false, orders, states));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("quotes fewer sizes than orders when the levels are away from the price", () => {
    const first = curveAt(30_000_000_000n, 95n, 30n);
    const book = new OrderBook();
    for (let i = 0; i < 50; i++)
      book.add(
        bookOrder(
          i,
          {
            kind: i % 2,
            amount: 1_000_000n + BigInt(i) * 1_000n,
            permille: i % 2 === 0 ? 3000n : 300n,
            trail: 0n,
          },
          first,
        ),
      );
    let quotes = 0;
    const { crossed } = book.evaluate(MINT, (size) => {
      quotes++;
      return observeVenue(size, curveAt(30_100_000_000n, 95n, 30n), 6);
    });
    expect(crossed).toEqual([]);
    expect(quotes).toBeLessThan(10);
  });
});
