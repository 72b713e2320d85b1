/** Reconnect delays: exponential from `initialMs`, capped at `maxMs`, with jitter so restarts do not stampede. */

/** Backoff settings. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** Default: 100 ms, doubling, at most 5 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 100, maxMs: 5_000 };

/** The delay before reconnect attempt `attempt` (0-based): between half and all of the capped exponential. */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const capped = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(capped / 2 + (capped / 2) * random());
}
