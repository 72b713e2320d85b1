/**
 * Requests with an unknown, revoked or expired x-api-key: counted per client IP (a minute window), in
 * `lasertrade_auth_failures_total`, and in a sampled warning; past AUTH_FAILURES_PER_MINUTE the IP's
 * further failures are answered 429 instead of 401, so guessing keys (or hammering with a revoked one) costs a
 * minute per batch. The stream's `auth` message counts on the same allowance (closed 4429 past it).
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, FOUNDATION, HARDENING } from "../../core/errors.js";
import { retryAfterSeconds } from "./budgets.js";
import type { RequestCounter } from "./request-counters.js";

const WINDOW_MS = 60_000;
/** One warning per this many failures of one IP in a window (the first always). */
const LOG_EVERY = 100;

export interface AuthFailureDeps {
  perMinute: number;
  counter: RequestCounter;
  nowMs: () => number;
  countFailure: () => void;
  log: () => FastifyBaseLogger;
}

/**
 * Counts one unusable key presented from `ip` (on `route`): the metric, the IP's minute window and the sampled
 * warning. Returns undefined while the IP is within its allowance, else the seconds until its window ends.
 * Shared by the header path and the stream's auth message, so both draw on one allowance.
 */
export function authFailureCounter(
  deps: AuthFailureDeps,
): (ip: string, route: string | undefined) => Promise<number | undefined> {
  return async (ip, route) => {
    deps.countFailure();
    const now = deps.nowMs();
    const windowStartMs = now - (now % WINDOW_MS);
    const n = await deps.counter.count(`authfail:${ip}`, windowStartMs, WINDOW_MS);
    // The route pattern and the IP only: never the presented key, never the URL's query.
    if (n % LOG_EVERY === 1) deps.log().warn({ ip, route, failures: n }, "invalid API key presented");
    if (deps.perMinute === 0 || n <= deps.perMinute) return undefined;
    return retryAfterSeconds(now, windowStartMs, WINDOW_MS);
  };
}

/**
 * Builds the error an unusable key gets: its 401 (`failure`, default the unknown-key one), or a 429 with
 * Retry-After past the IP's allowance.
 */
export function authFailureGuard(
  deps: AuthFailureDeps,
  count: (ip: string, route: string | undefined) => Promise<number | undefined> = authFailureCounter(deps),
): (req: FastifyRequest, reply: FastifyReply, failure?: ApiError) => Promise<ApiError> {
  return async (req, reply, failure) => {
    const seconds = await count(req.ip, req.routeOptions.url);
    if (seconds === undefined) return failure ?? new ApiError(401, FOUNDATION.apiKeyInvalid);
    void reply.header("Retry-After", String(seconds));
    return new ApiError(429, HARDENING.authFailuresLimited(seconds));
  };
}
