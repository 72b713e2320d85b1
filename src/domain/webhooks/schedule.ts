/** When a failed delivery is tried again (the schedule, after the first attempt). */

const S = 1_000;
const M = 60 * S;
const H = 60 * M;

/** Waits before retries 1..9; after the last one fails, the delivery is failed for good. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * S,
  5 * M,
  30 * M,
  2 * H,
  5 * H,
  10 * H,
  14 * H,
  20 * H,
  24 * H,
];

/** When to try again after `attempts` attempts failed, or null when the schedule is exhausted. */
export function nextAttemptAt(
  nowMs: number,
  attempts: number,
  delays: readonly number[] = RETRY_DELAYS_MS,
): number | null {
  const delay = delays[attempts - 1];
  return delay === undefined ? null : nowMs + delay;
}
