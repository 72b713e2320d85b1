/**
 * The in-memory index of open orders: by mint, then by size (orders of one size share one quote per state
 * change), then by level: `above` levels ascending and `below` levels descending, so a state change reads only
 * the crossed prefix, never every order. Trailing stops move their level with the peak, so they are kept in a
 * list of their own per size. A state change quotes only the sizes whose levels its price can reach (prune.ts:
 * the price is monotone in the size, so quoted sizes bound the sizes between them). Pure (no I/O): the engine
 * feeds it observations.
 */
import type { Direction, OrderSpec } from "./model.js";
import { sizeKey, type OrderSize } from "./observe.js";
import { quotePruned, reach, type Reach } from "./prune.js";
import { decide, type Observation } from "./rules.js";

/** An open order as the book holds it. */
export interface BookOrder {
  readonly id: string;
  readonly mint: string;
  readonly version: number;
  /** Sends so far, as read with `version` (a claim at that version makes the next attempt). */
  readonly attempt: number;
  readonly spec: OrderSpec;
  readonly size: OrderSize;
  /** trailing_stop: the highest price seen so far. */
  peak: bigint | null;
  readonly expiresAtMs: number | null;
  /** Whose order it is (the engine's fire checks that key's custody); absent in pure tests of the book. */
  readonly owner?: { readonly accountId: number; readonly keyId: number; readonly wallet: string };
}

interface Entry {
  readonly level: bigint;
  readonly order: BookOrder;
  readonly trigger: string;
}

interface Side {
  price: Entry[];
  solOut: Entry[];
}

interface Bucket {
  readonly size: OrderSize;
  readonly above: Side;
  readonly below: Side;
  readonly trailing: Map<string, BookOrder>;
  count: number;
  /** What the pruning reads of its levels; null when an order came, went or a peak moved since. */
  reach: Reach | null;
  /**
   * A state (stateKey) at which deciding this bucket again changes nothing: no order fires, no peak moves. Set
   * when a decision at that state fired nothing (its peaks, if any moved, now stand at that state's price);
   * cleared when an order joins the bucket or one of its orders fires. Removing an order keeps it (what is
   * left did nothing either). This is what spares the sizes of trailing stops whose mint comes back to the
   * state that set their peaks: there every size is within the pruning's bound, yet none can do anything.
   */
  idleAt: string | null;
}

/** The reach of a bucket known idle at the state: nothing it holds can act. */
const IDLE: Reach = { above: null, below: null, always: false };

/** A mint's buckets of one side by ascending size, with their reaches (the pruning's input, kept between changes). */
interface Group {
  readonly buckets: readonly Bucket[];
  readonly reaches: Reach[];
}

/** An order the evaluation found crossed, with the trigger that crossed. */
export interface Crossing {
  readonly order: BookOrder;
  readonly trigger: string;
}

/** Inserts keeping `list` sorted: ascending for `above` (fires at value ≥ level), descending for `below`. */
function insertSorted(list: Entry[], e: Entry, direction: Direction): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const before = direction === "above" ? list[mid]!.level <= e.level : list[mid]!.level >= e.level;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, e);
}

/** The crossed prefix of a sorted side list. */
function crossedPrefix(
  list: readonly Entry[],
  direction: Direction,
  value: bigint | null,
  out: Crossing[],
): void {
  if (value === null) return;
  for (const e of list) {
    if (direction === "above" ? e.level > value : e.level < value) return;
    out.push({ order: e.order, trigger: e.trigger });
  }
}

/** The book of open orders (see the file comment). */
export class OrderBook {
  private readonly mints = new Map<string, Map<string, Bucket>>();
  private readonly byId = new Map<string, BookOrder>();
  /** Per mint, its sell buckets and its buy buckets by ascending size (rebuilt when a size comes or goes). */
  private readonly sorted = new Map<string, Group[]>();

  /** `prune: false` quotes every size on every state change (the reference the pruning is tested against). */
  constructor(private readonly options: { prune?: boolean } = {}) {}

  /** How many orders it holds. */
  get size(): number {
    return this.byId.size;
  }

  /** The order of `id`, if the book holds it. */
  get(id: string): BookOrder | undefined {
    return this.byId.get(id);
  }

  /** Every order it holds. */
  orders(): IterableIterator<BookOrder> {
    return this.byId.values();
  }

  /** Whether any order is on `mint`. */
  hasMint(mint: string): boolean {
    return this.mints.has(mint);
  }

  /** Adds an order (replacing an older version of it). */
  add(o: BookOrder): void {
    if (this.byId.has(o.id)) this.remove(o.id);
    let buckets = this.mints.get(o.mint);
    if (buckets === undefined) this.mints.set(o.mint, (buckets = new Map()));
    const key = sizeKey(o.size);
    let b = buckets.get(key);
    if (b === undefined) {
      b = {
        size: o.size,
        above: { price: [], solOut: [] },
        below: { price: [], solOut: [] },
        trailing: new Map(),
        count: 0,
        reach: null,
        idleAt: null,
      };
      buckets.set(key, b);
      this.sorted.delete(o.mint);
    }
    // Trailing stops and migration orders are decided one by one (their level is not a fixed price).
    if (o.spec.kind === "trailing_stop" || o.spec.kind === "on_migration") b.trailing.set(o.id, o);
    for (const t of o.spec.triggers) {
      const side = t.direction === "above" ? b.above : b.below;
      const list = t.level.kind === "price" ? side.price : side.solOut;
      const level = t.level.kind === "price" ? t.level.price : t.level.lamports;
      insertSorted(list, { level, order: o, trigger: t.name }, t.direction);
    }
    b.count++;
    b.reach = null;
    b.idleAt = null;
    this.byId.set(o.id, o);
  }

  /** Removes an order; returns it, and whether its mint has no order left. */
  remove(id: string): { order: BookOrder; mintEmpty: boolean } | undefined {
    const o = this.byId.get(id);
    if (o === undefined) return undefined;
    this.byId.delete(id);
    const buckets = this.mints.get(o.mint)!;
    const key = sizeKey(o.size);
    const b = buckets.get(key)!;
    const drop = (l: Entry[]): Entry[] =>
      l.some((e) => e.order.id === id) ? l.filter((e) => e.order.id !== id) : l;
    for (const side of [b.above, b.below]) {
      side.price = drop(side.price);
      side.solOut = drop(side.solOut);
    }
    b.trailing.delete(id);
    b.reach = null;
    if (--b.count === 0) {
      buckets.delete(key);
      this.sorted.delete(o.mint);
    }
    if (buckets.size === 0) this.mints.delete(o.mint);
    return { order: o, mintEmpty: !this.mints.has(o.mint) };
  }

  /**
   * Evaluates the orders of `mint` on one state: `observe` quotes a size at most once (only the sizes the state
   * can matter to, unless pruning is off). `state` names the state (observe.ts stateKey: equal keys observe every
   * size alike); with it, buckets this state left unchanged before are neither quoted for themselves nor
   * decided again. Returns the crossed orders (each once, its first crossed trigger) and the trailing stops
   * whose peak rose (updated in place).
   */
  evaluate(
    mint: string,
    observe: (size: OrderSize) => Observation | null,
    state: string | null = null,
  ): { crossed: Crossing[]; peaks: BookOrder[] } {
    const crossed: Crossing[] = [];
    const peaks: BookOrder[] = [];
    const buckets = this.mints.get(mint);
    if (buckets === undefined) return { crossed, peaks };
    if (this.options.prune === false) {
      for (const b of buckets.values()) {
        const obs = observe(b.size);
        if (obs !== null) decideBucket(b, obs, crossed, peaks, null);
      }
      return { crossed, peaks };
    }
    // Reaches are recomputed only for buckets that changed: an evaluation allocates little (GC pauses are the
    // tail of a state change's cost).
    for (const group of this.sortedOf(mint, buckets)) {
      const { buckets: list, reaches } = group;
      for (let i = 0; i < list.length; i++) {
        const b = list[i]!;
        reaches[i] = state !== null && b.idleAt === state ? IDLE : reachOf(b);
      }
      quotePruned(
        reaches,
        (i) => observe(list[i]!.size),
        (i, obs) => {
          const b = list[i]!;
          // A bucket idle at this state is quoted only as a bound for the sizes around it.
          if (obs !== null && (state === null || b.idleAt !== state))
            decideBucket(b, obs, crossed, peaks, state);
        },
      );
    }
    return { crossed, peaks };
  }

  private sortedOf(mint: string, buckets: Map<string, Bucket>): Group[] {
    let groups = this.sorted.get(mint);
    if (groups !== undefined) return groups;
    const amount = (b: Bucket): bigint => (b.size.side === "sell" ? b.size.units : b.size.lamports);
    const bySize = (x: Bucket, y: Bucket): number =>
      amount(x) < amount(y) ? -1 : amount(x) > amount(y) ? 1 : 0;
    const all = [...buckets.values()];
    groups = [
      all.filter((b) => b.size.side === "sell").sort(bySize),
      all.filter((b) => b.size.side === "buy").sort(bySize),
    ].map((list) => ({ buckets: list, reaches: new Array<Reach>(list.length) }));
    this.sorted.set(mint, groups);
    return groups;
  }
}

/** The bucket's reach, computed once per change of its orders or peaks. */
function reachOf(b: Bucket): Reach {
  if (b.reach === null)
    b.reach = reach({
      firstAbove: b.above.price[0]?.level,
      firstBelow: b.below.price[0]?.level,
      hasSolOut: b.above.solOut.length > 0 || b.below.solOut.length > 0,
      singles: b.trailing.values(),
    });
  return b.reach;
}

/**
 * Decides one bucket's orders at its observation (the crossed prefixes, then each trailing or migration order);
 * `state`, the observation's state key, is remembered as idle when nothing fired.
 */
function decideBucket(
  b: Bucket,
  obs: Observation,
  crossed: Crossing[],
  peaks: BookOrder[],
  state: string | null,
): void {
  const found: Crossing[] = [];
  crossedPrefix(b.above.price, "above", obs.price, found);
  crossedPrefix(b.below.price, "below", obs.price, found);
  crossedPrefix(b.above.solOut, "above", obs.solOut, found);
  crossedPrefix(b.below.solOut, "below", obs.solOut, found);
  let moved = false;
  for (const t of b.trailing.values()) {
    const d = decide(t.spec, obs, t.peak);
    if (d.fire) found.push({ order: t, trigger: d.trigger });
    else if (d.peak !== undefined) {
      t.peak = d.peak;
      b.reach = null;
      moved = true;
      peaks.push(t);
    }
  }
  if (found.length === 0) {
    // Deciding again at this state repeats nothing: the peaks that moved stand at its price now. A peak moved
    // here replaces an older idle state (at which the new peak may fire); an unchanged bucket keeps it.
    if (state !== null && (moved || b.idleAt === null)) b.idleAt = state;
    return;
  }
  b.idleAt = null;
  const seen = new Set<string>();
  for (const c of found) {
    if (seen.has(c.order.id)) continue;
    seen.add(c.order.id);
    crossed.push(c);
  }
}
