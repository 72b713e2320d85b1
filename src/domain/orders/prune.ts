/**
 * Which sizes of a mint a state change needs quoted. On one venue state the price of a size is monotone in the
 * size (a sell's SOL per token falls as it grows, a buy's rises: constant-product math with proportional fees),
 * up to the integer rounding each observation bounds with its `slack`. So two quoted sizes bound the price of
 * every size between them, and a size whose nearest levels lie outside that bound cannot fire nor move a peak:
 * it is skipped. The search quotes the smallest and largest size, then bisects only the ranges holding a size
 * whose levels fall within the bound. The decision of a quoted size is unchanged (the exact quote against the
 * level), so an order fires exactly when the naive evaluation (every size quoted) fires it. Pure.
 */
import { trailingLevel, type Observation } from "./rules.js";

/** What a bucket's levels need of the price to do anything at this state (see `reach`). */
export interface Reach {
  /** The lowest price that fires an `above` level or moves a trailing peak (null: none). */
  readonly above: bigint | null;
  /** The highest price that fires a `below` level or a trailing stop (null: none). */
  readonly below: bigint | null;
  /** Levels the price bound cannot rule out (SOL-out levels, migration orders, a trailing stop with no peak). */
  readonly always: boolean;
}

/** The levels one bucket holds, as the pruning reads them. */
export interface PrunableBucket {
  /** Ascending `above` price levels, descending `below` price levels (the book's sorted lists). */
  readonly firstAbove: bigint | undefined;
  readonly firstBelow: bigint | undefined;
  readonly hasSolOut: boolean;
  /** Trailing stops and migration orders of the bucket. */
  readonly singles: Iterable<{
    readonly spec: { readonly kind: string; readonly trailHundredths: bigint | null };
    readonly peak: bigint | null;
  }>;
}

/** The price range in which the bucket's orders do something. */
export function reach(b: PrunableBucket): Reach {
  let above = b.firstAbove ?? null;
  let below = b.firstBelow ?? null;
  let always = b.hasSolOut;
  for (const o of b.singles) {
    if (o.spec.kind !== "trailing_stop" || o.peak === null) {
      always = true;
      continue;
    }
    // A price above the peak moves it; one at or under the trailing level fires.
    const up = o.peak + 1n;
    const down = trailingLevel(o.peak, o.spec.trailHundredths ?? 0n);
    if (above === null || up < above) above = up;
    if (below === null || down > below) below = down;
  }
  return { above, below, always };
}

/** Lamports of rounding one quote may carry (fees each rounded up, reserves math rounded): generous. */
const ROUNDING_LAMPORTS = 16n;

/**
 * A bound on how far the price of a size whose quote moves `sol` lamports and `tokens` units, at most `price`,
 * can sit from the exact (real-valued, monotone) price: the lamports' rounding relative to `sol`, the tokens'
 * rounding (a buy's fee rounding moves its tokens by the marginal rate) relative to `tokens`, and the division.
 */
export function roundingSlack(price: bigint, sol: bigint, tokens: bigint): bigint {
  const s = sol > 0n ? sol : 1n;
  const t = tokens > 0n ? tokens : 1n;
  return (price * ROUNDING_LAMPORTS) / s + (price * ROUNDING_LAMPORTS) / t + 4n;
}

/** Whether a price within [lo, hi] can make the bucket do something. */
function within(r: Reach, lo: bigint, hi: bigint): boolean {
  return r.always || (r.above !== null && hi >= r.above) || (r.below !== null && lo <= r.below);
}

/**
 * Quotes what `reaches` (one side's buckets, sorted by size) needs: `quote(i)` is called for the sizes whose
 * observation can matter, and `seen(i, obs)` receives each quoted one (sizes not quoted cannot fire).
 */
export function quotePruned(
  reaches: readonly Reach[],
  quote: (i: number) => Observation | null,
  seen: (i: number, obs: Observation | null) => void,
): void {
  const n = reaches.length;
  if (n === 0) return;
  const obs: (Observation | null)[] = new Array<Observation | null>(n);
  const take = (i: number): Observation | null => {
    const o = quote(i);
    obs[i] = o;
    seen(i, o);
    return o;
  };
  take(0);
  if (n === 1) return;
  take(n - 1);
  // Ranges (i, j) with both ends quoted; the inner sizes are decided from the ends' bound or bisected.
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    if (j - i < 2) continue;
    const a = obs[i] ?? null;
    const b = obs[j] ?? null;
    if (a?.moved !== undefined && b?.moved !== undefined) {
      // Every size between moves at least the smaller end's SOL and tokens at a price at most the higher end's
      // (plus its own rounding): one slack bounds the rounding of both ends and of every size between.
      const top = a.price > b.price ? a.price : b.price;
      const sol = a.moved.sol < b.moved.sol ? a.moved.sol : b.moved.sol;
      const tokens = a.moved.tokens < b.moved.tokens ? a.moved.tokens : b.moved.tokens;
      const margin = 2n * roundingSlack(2n * top, sol, tokens);
      const lo = (a.price < b.price ? a.price : b.price) - margin;
      const hi = top + margin;
      let any = false;
      for (let k = i + 1; k < j && !any; k++) any = within(reaches[k]!, lo, hi);
      if (!any) continue;
    }
    const m = (i + j) >> 1;
    take(m);
    stack.push([i, m], [m, j]);
  }
}
