/**
 * The book's pruning (quote only the sizes a state can matter to) against the naive evaluation (quote every
 * size): on random books and random sequences of curve and pool states, both fire the same orders with the same
 * triggers and move the same trailing peaks, state after state.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBook, type BookOrder } from "../../../../src/domain/orders/book.js";
import type { OrderSpec, Trigger } from "../../../../src/domain/orders/model.js";
import { observeVenue, stateKey, type OrderSize } from "../../../../src/domain/orders/observe.js";
import { priceOf } from "../../../../src/domain/orders/rules.js";
import type { VenueState } from "../../../../src/domain/trade/quote.js";
import { orderSpec } from "./spec-fixture.js";

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
  const base = orderSpec({
    mint: MINT,
    amount: buy ? { kind: "sol", lamports: d.amount } : { kind: "tokens", units: d.amount * 1000n },
    amountText: "x",
    sizeUnits: buy ? null : d.amount * 1000n,
  });
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
    attempt: 0,
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

/**
 * Runs a book over the states; returns each state's fires and peak moves, as sorted text. `keyed`: each state is
 * named by its stateKey (the book remembers idle buckets by it). `late`: orders added after the state of that
 * index was evaluated (they join buckets the earlier states left idle).
 */
function run(
  prune: boolean,
  orders: Drawn[],
  states: VenueState[],
  keyed = false,
  late: { at: number; orders: Drawn[] } = { at: -1, orders: [] },
): string[] {
  const book = new OrderBook({ prune });
  orders.forEach((d, i) => book.add(bookOrder(i, d, states[0]!)));
  const out: string[] = [];
  for (const [n, venue] of states.entries()) {
    if (n === late.at) late.orders.forEach((d, i) => book.add(bookOrder(orders.length + i, d, states[0]!)));
    const { crossed, peaks } = book.evaluate(
      MINT,
      (size) => observeVenue(size, venue, 6),
      keyed ? stateKey(venue, 6) : null,
    );
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

  it("with states named by their key, fires exactly what quoting every size fires, states coming back", () => {
    fc.assert(
      fc.property(
        fc.array(drawn, { minLength: 1, maxLength: 30 }),
        fc.array(drawn, { maxLength: 10 }),
        fc.boolean(),
        // Few distinct states, many visits: buckets are found idle at states they meet again.
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 16 }),
        fc.nat(),
        (orders, lateOrders, pool, picks, lateAt) => {
          const distinct = [0n, 1n, 2n, 3n, 4n].map((i) =>
            pool
              ? poolAt(60_000_000_000n + i * 3_000_000_000n, 25n)
              : curveAt(28_000_000_000n + i * 1_500_000_000n, 95n, 30n),
          );
          const states = picks.map((i) => distinct[i]!);
          const late = { at: lateAt % states.length, orders: lateOrders };
          expect(run(true, orders, states, true, late)).toEqual(run(false, orders, states, false, late));
        },
      ),
      { numRuns: 300 },
    );
  });

  /** A sell trailing stop of `units` (peak unset: the first state sets it) or a take-profit at `level`. */
  function sellOrder(id: string, units: bigint, o: { trail?: bigint; takeProfit?: bigint }): BookOrder {
    const base = orderSpec({
      mint: MINT,
      amount: { kind: "tokens", units },
      amountText: "x",
      sizeUnits: units,
      trailHundredths: o.trail ?? null,
    });
    const spec: OrderSpec =
      o.takeProfit !== undefined
        ? {
            ...base,
            kind: "take_profit",
            side: "sell",
            triggers: [trig("take_profit", "above", o.takeProfit)],
          }
        : { ...base, kind: "trailing_stop", side: "sell", triggers: [] };
    return {
      id,
      mint: MINT,
      version: 1,
      attempt: 0,
      spec,
      size: { side: "sell", units },
      peak: null,
      expiresAtMs: null,
    };
  }

  const at = (book: OrderBook, venue: VenueState) =>
    book.evaluate(MINT, (size) => observeVenue(size, venue, 6), stateKey(venue, 6));

  it("a state that raised a peak is no longer idle for its bucket once a higher state raised it again", () => {
    const a = curveAt(30_000_000_000n, 95n, 30n);
    const higher = curveAt(33_000_000_000n, 95n, 30n);
    const book = new OrderBook();
    book.add(sellOrder("t", 1_000_000_000n, { trail: 500n }));
    expect(at(book, a).peaks.map((p) => p.id)).toEqual(["t"]);
    expect(at(book, a)).toEqual({ crossed: [], peaks: [] });
    expect(at(book, higher).peaks.map((p) => p.id)).toEqual(["t"]);
    // Back at the first state, more than 5% under the new peak: the stop fires.
    expect(at(book, a).crossed.map((c) => `${c.order.id}:${c.trigger}`)).toEqual(["t:trailing_stop"]);
  });

  it("an order joining a bucket idle at the state is decided at that state", () => {
    const a = curveAt(30_000_000_000n, 95n, 30n);
    const book = new OrderBook();
    book.add(sellOrder("t", 1_000_000_000n, { trail: 500n }));
    at(book, a);
    at(book, a);
    // Same size, a level the state's price is already above.
    book.add(sellOrder("tp", 1_000_000_000n, { takeProfit: 1n }));
    expect(at(book, a).crossed.map((c) => c.order.id)).toEqual(["tp"]);
  });

  it("trailing stops back at the state that set their peaks quote only the bounds, not every size", () => {
    const states = [29_000_000_000n, 31_000_000_000n, 30_000_000_000n].map((q) => curveAt(q, 95n, 30n));
    const book = new OrderBook();
    for (let i = 0; i < 50; i++)
      book.add(sellOrder(`t${i}`, 1_000_000_000n + BigInt(i) * 1_000_000n, { trail: 9_000n }));
    for (const s of states) at(book, s);
    let quotes = 0;
    const peakState = states[1]!;
    const { crossed, peaks } = book.evaluate(
      MINT,
      (size) => {
        quotes++;
        return observeVenue(size, peakState, 6);
      },
      stateKey(peakState, 6),
    );
    expect({ crossed, peaks }).toEqual({ crossed: [], peaks: [] });
    expect(quotes).toBeLessThanOrEqual(2);
  });

  it("names states by every field: equal states alike, any field changed apart", () => {
    const a = curveAt(30_000_000_000n, 95n, 30n);
    expect(stateKey(curveAt(30_000_000_000n, 95n, 30n), 6)).toBe(stateKey(a, 6));
    expect(stateKey(a, 9)).not.toBe(stateKey(a, 6));
    expect(stateKey(curveAt(30_000_000_000n, 96n, 30n), 6)).not.toBe(stateKey(a, 6));
    expect(stateKey(curveAt(30_000_000_000n, 95n, 31n), 6)).not.toBe(stateKey(a, 6));
    if (a.venue !== "bonding_curve") throw new Error("curve");
    for (const f of Object.keys(a.curve) as (keyof typeof a.curve)[]) {
      const v = a.curve[f];
      const changed = { ...a, curve: { ...a.curve, [f]: typeof v === "bigint" ? v + 1n : !v } };
      expect(stateKey(changed, 6), f).not.toBe(stateKey(a, 6));
    }
    const withSynthetic = { ...a, synthetic: { curveBaseBalance: 1n, poolMigrationFee: 2n } };
    expect(stateKey(withSynthetic, 6)).not.toBe(stateKey(a, 6));
    expect(
      stateKey({ ...withSynthetic, synthetic: { curveBaseBalance: 1n, poolMigrationFee: 3n } }, 6),
    ).not.toBe(stateKey(withSynthetic, 6));
    const p = poolAt(80_000_000_000n, 20n);
    expect(stateKey(poolAt(80_000_000_000n, 21n), 6)).not.toBe(stateKey(p, 6));
    expect(stateKey(poolAt(80_000_000_001n, 20n), 6)).not.toBe(stateKey(p, 6));
    // A part it does not understand: no key, the state is never taken for another.
    expect(stateKey({ ...a, curve: { ...a.curve, extra: new Map() } } as VenueState, 6)).toBeNull();
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
