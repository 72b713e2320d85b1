/** Load generation and the arithmetic of its figures (pure except `runPool`'s calls). */
import { apiRequest } from "../harness/index.js";
import { ascending, percentile as percentileOfSorted } from "../harness/stats.js";

/** Runs `task(0..total-1)` with at most `concurrency` at once; resolves with the results in index order. */
export async function runPool<T>(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return results;
}

/** The p-th percentile (0..100) of `values` in any order (nearest rank); 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  return values.length === 0 ? 0 : percentileOfSorted(ascending(values), p);
}

/** What one trade request came back with. */
export interface TradeCall {
  /** HTTP status, or null when no answer came (network error or the client's own timeout). */
  status: number | null;
  ms: number;
  /** `signature` of the body (a 200, or a 502 that reports what it sent). */
  signature: string | null;
  confirmed: boolean | null;
  /** `timing_ms.confirmation` of the body (requests with measure_timing). */
  confirmationMs: number | null;
  /** `detail` of an error body, or the client error. */
  detail: string | null;
}

/** POSTs one trade and classifies the answer; never throws. */
export async function callTrade(
  baseUrl: string,
  apiKey: string,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<TradeCall> {
  const t0 = performance.now();
  try {
    const res = await apiRequest<{
      signature?: unknown;
      confirmed?: unknown;
      detail?: unknown;
      timing_ms?: { confirmation?: unknown };
    }>(baseUrl, "POST", "/v1/trades/execute", { apiKey, body, timeoutMs });
    const b = res.body ?? {};
    return {
      status: res.status,
      ms: performance.now() - t0,
      signature: typeof b.signature === "string" ? b.signature : null,
      confirmed: typeof b.confirmed === "boolean" ? b.confirmed : null,
      confirmationMs: typeof b.timing_ms?.confirmation === "number" ? b.timing_ms.confirmation : null,
      detail: typeof b.detail === "string" ? b.detail : null,
    };
  } catch (e) {
    return {
      status: null,
      ms: performance.now() - t0,
      signature: null,
      confirmed: null,
      confirmationMs: null,
      detail: (e as Error).name === "TimeoutError" ? "client timeout" : (e as Error).message,
    };
  }
}

/** Counts of each distinct value (e.g. statuses, details), most frequent first. */
export function tally(values: (string | number | null)[]): [string, number][] {
  const m = new Map<string, number>();
  for (const v of values) m.set(String(v), (m.get(String(v)) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

/** Values that occur more than once. */
export function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}
