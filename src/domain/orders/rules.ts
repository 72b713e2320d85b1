/**
 * The pure trigger rules: the price of an order's own size from a quote (fees included), whether a level is
 * crossed, the trailing stop's moving level, and the percent-from-entry levels. No I/O.
 */
import { FULL_PERCENT_HUNDREDTHS } from "../../core/amounts.js";
import type { Decision, Direction, Level, OrderSpec } from "./model.js";
import { LAUNCHSWAP, type Venue } from "../../core/venues.js";

const LAMPORTS_TO_PRICE = 10n ** 9n; // lamports → SOL × 10^18 is × 10^9

/** What one state of the venue says about an order's size: its price and, for sells, the SOL it gets. */
export interface Observation {
  /** SOL × 10^18 per whole token of the order's size, fees included. */
  readonly price: bigint;
  /** Sells: lamports received for the size after fees; null for buys. */
  readonly solOut: bigint | null;
  /** Where the state routes a trade (on_migration fires on the pool). */
  readonly venue?: Venue;
  /** What the quote moved (lamports, token units): lets the evaluation bound the price of sizes between two. */
  readonly moved?: { readonly sol: bigint; readonly tokens: bigint };
}

/**
 * The price of `units` token units traded for `lamports` (SOL paid by a buy or received by a sell, fees
 * included): SOL × 10^18 per whole token, rounded down. Null when no token moves.
 */
export function priceOf(lamports: bigint, units: bigint, decimals: number): bigint | null {
  if (units <= 0n) return null;
  return (lamports * (SCALE[decimals] ?? LAMPORTS_TO_PRICE * 10n ** BigInt(decimals))) / units;
}

/** LAMPORTS_TO_PRICE × 10^decimals for the usual decimals: a power per quote shows in the evaluation's cost. */
const SCALE: readonly bigint[] = Array.from({ length: 19 }, (_, d) => LAMPORTS_TO_PRICE * 10n ** BigInt(d));

/** Whether `observed` is on the firing side of `level`. */
export function crossed(direction: Direction, level: Level, observed: Observation): boolean {
  const value = level.kind === "price" ? observed.price : observed.solOut;
  const target = level.kind === "price" ? level.price : level.lamports;
  if (value === null) return false;
  return direction === "above" ? value >= target : value <= target;
}

/** The trailing stop's level: `hundredths` of a percent below `peak`. */
export function trailingLevel(peak: bigint, hundredths: bigint): bigint {
  return (peak * (FULL_PERCENT_HUNDREDTHS - hundredths)) / FULL_PERCENT_HUNDREDTHS;
}

/** A level `hundredths` of a percent from `entry` (negative: below), rounded down; null when not above zero. */
export function levelFromEntry(entry: bigint, hundredths: bigint): bigint | null {
  const level = (entry * (FULL_PERCENT_HUNDREDTHS + hundredths)) / FULL_PERCENT_HUNDREDTHS;
  return level > 0n ? level : null;
}

/**
 * Decides an order at one observation. A bracket fires its first crossed leg (take-profit is checked first:
 * on a state that crosses both, which cannot happen for one price, the rise wins). A trailing stop remembers
 * a new highest price (`peak` in the answer) and fires when the price falls to its level below the peak.
 */
export function decide(spec: OrderSpec, observed: Observation, peak: bigint | null): Decision {
  if (spec.kind === "on_migration")
    return observed.venue === LAUNCHSWAP ? { fire: true, trigger: "on_migration" } : { fire: false };
  if (spec.kind === "trailing_stop") {
    const hundredths = spec.trailHundredths ?? 0n;
    const high = peak === null || observed.price > peak ? observed.price : peak;
    if (observed.price <= trailingLevel(high, hundredths)) return { fire: true, trigger: "trailing_stop" };
    return high !== peak ? { fire: false, peak: high } : { fire: false };
  }
  for (const t of spec.triggers)
    if (crossed(t.direction, t.level, observed)) return { fire: true, trigger: t.name };
  return { fire: false };
}
