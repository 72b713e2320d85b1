/**
 * Retries with backoff, only where repeating cannot do a thing twice: 429 and 503 answers (the service refused
 * before acting), and network errors on requests that are safe to repeat (GET/PUT/DELETE, or a POST that carries
 * an Idempotency-Key or is marked read-only) or that certainly never left (connection refused).
 */

/** How retries are spaced. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries: number;
  /** First backoff, doubled each retry, with full jitter (default 250 ms). */
  baseDelayMs: number;
  /** Upper bound of one wait, also for a server's Retry-After (default 5000 ms). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 250, maxDelayMs: 5000 };

/** Header a caller sets on a POST that only reads (cashback check); removed before sending. */
export const READ_ONLY_HEADER = "x-lasertrade-read-only";

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

const RETRY_STATUSES = new Set([429, 503]);

/** Whether a network error on this request may be retried: it cannot act twice, or it never connected. */
function repeatable(req: Request, readOnly: boolean, error: unknown): boolean {
  if (readOnly || req.method !== "POST" || req.headers.has("idempotency-key")) return true;
  // undici reports a refused connection as TypeError("fetch failed") with cause.code ECONNREFUSED.
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === "ECONNREFUSED";
}

/** The wait before retry number `attempt` (0-based): Retry-After when given, else jittered exponential. */
export function backoffMs(
  attempt: number,
  options: RetryOptions,
  retryAfter: string | null,
  random = Math.random,
): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, options.maxDelayMs);
  const ceiling = Math.min(options.baseDelayMs * 2 ** attempt, options.maxDelayMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A fetch that retries per the rules above; each attempt sends a fresh clone of the request. */
export function retryingFetch(inner: Fetch, options: RetryOptions, sleep = defaultSleep): Fetch {
  return async (input, init) => {
    const original = new Request(input);
    original.headers.delete(READ_ONLY_HEADER);
    const readOnly = input.headers.has(READ_ONLY_HEADER);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.retries;
      let response: Response;
      try {
        response = await inner(original.clone(), init);
      } catch (e) {
        if (last || !repeatable(original, readOnly, e) || original.signal.aborted) throw e;
        await sleep(backoffMs(attempt, options, null));
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      await sleep(backoffMs(attempt, options, response.headers.get("retry-after")));
    }
  };
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
