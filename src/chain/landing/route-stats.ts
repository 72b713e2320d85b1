/**
 * Rolling landing figures per route, from the service's own traffic: for each variant sent, whether the route
 * accepted it, whether it landed and in how many slots, the tip it paid when it landed. Windows of 1 h and
 * 24 h; a route whose last `demoteAfter` sends all failed (refused, or accepted and never landed) is demoted
 * for `demoteMs` (left out of races), then tried again; the reason is kept for GET /v1/routes.
 */
import type { RelayErrorReason } from "../relay-fanout.js";

/** One variant's outcome on its route. */
export interface RouteOutcome {
  route: string;
  atMs: number;
  accepted: boolean;
  landed: boolean;
  /** Slots from the send to the landing (landed variants only). */
  slotsToLand?: number;
  error?: RelayErrorReason;
  /** Paid only by the variant that landed. */
  tipLamports: bigint;
}

/** A route's figures over one window. */
export interface RouteWindow {
  sent: number;
  landed: number;
  /** landed / sent, null before any send. */
  landing_rate: number | null;
  slots_to_land_p50: number | null;
  slots_to_land_p90: number | null;
  errors: number;
  tips_paid_lamports: string;
}

/** Whether a route is demoted, and why. */
export interface RouteDemotion {
  demoted: boolean;
  reason: string | null;
  until_ms: number | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The p-th percentile (nearest rank) of sorted values; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** A window's figures from its outcomes. */
export function windowOf(outcomes: readonly RouteOutcome[]): RouteWindow {
  const landed = outcomes.filter((o) => o.landed);
  const slots = landed.map((o) => o.slotsToLand ?? 0).sort((a, b) => a - b);
  return {
    sent: outcomes.length,
    landed: landed.length,
    landing_rate: outcomes.length === 0 ? null : landed.length / outcomes.length,
    slots_to_land_p50: percentile(slots, 50),
    slots_to_land_p90: percentile(slots, 90),
    errors: outcomes.filter((o) => !o.accepted).length,
    tips_paid_lamports: landed.reduce((sum, o) => sum + o.tipLamports, 0n).toString(),
  };
}

/** Options of the route figures. */
export interface RouteStatsOptions {
  now?: () => number;
  /** Consecutive failed sends that demote a route (default 5). */
  demoteAfter?: number;
  /** How long a demotion lasts (default 60 s). */
  demoteMs?: number;
  /** Outcomes kept per route at most (oldest dropped first; default 100,000). */
  maxPerRoute?: number;
}

/** The in-process route figures. */
export class RouteStats {
  private readonly outcomes = new Map<string, RouteOutcome[]>();
  private readonly failuresInRow = new Map<string, number>();
  private readonly demotions = new Map<string, { untilMs: number; reason: string }>();
  private readonly now: () => number;

  constructor(private readonly options: RouteStatsOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Records one variant's outcome. */
  record(o: RouteOutcome): void {
    let list = this.outcomes.get(o.route);
    if (list === undefined) this.outcomes.set(o.route, (list = []));
    list.push(o);
    const cutoff = this.now() - DAY_MS;
    while (list.length > 0 && (list[0]!.atMs < cutoff || list.length > (this.options.maxPerRoute ?? 100_000)))
      list.shift();
    // A variant that lost the race to another route's landing is not this route's failure.
    if (o.landed) this.failuresInRow.set(o.route, 0);
    else if (!o.accepted || o.error !== undefined) this.fail(o);
  }

  /** Records a variant that was accepted but never landed while no variant of its race landed either. */
  notLanded(route: string): void {
    this.fail({ route, atMs: this.now(), accepted: true, landed: false, tipLamports: 0n });
  }

  /** The route's demotion state. */
  demotion(route: string): RouteDemotion {
    const d = this.demotions.get(route);
    if (d === undefined || d.untilMs <= this.now()) return { demoted: false, reason: null, until_ms: null };
    return { demoted: true, reason: d.reason, until_ms: d.untilMs };
  }

  /** The route's figures over the last hour and the last day. */
  windows(route: string): { "1h": RouteWindow; "24h": RouteWindow } {
    const list = this.outcomes.get(route) ?? [];
    const now = this.now();
    return {
      "1h": windowOf(list.filter((o) => o.atMs >= now - HOUR_MS)),
      "24h": windowOf(list.filter((o) => o.atMs >= now - DAY_MS)),
    };
  }

  private fail(o: RouteOutcome): void {
    const n = (this.failuresInRow.get(o.route) ?? 0) + 1;
    this.failuresInRow.set(o.route, n);
    const after = this.options.demoteAfter ?? 5;
    if (n >= after) {
      this.failuresInRow.set(o.route, 0);
      this.demotions.set(o.route, {
        untilMs: this.now() + (this.options.demoteMs ?? 60_000),
        reason: `the last ${after} sends failed (${o.error ?? "accepted, never landed"})`,
      });
    }
  }
}
