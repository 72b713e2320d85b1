/**
 * Requests with an unknown, revoked or expired x-api-key: counted per client IP (a minute window), in
 * `lasertrade_auth_failures_total`, and in a sampled warning; past AUTH_FAILURES_PER_MINUTE the IP's
 * further failures are answered 429 instead of 401, so guessing keys (or hammering with a revoked one, issue
 * 29) costs a minute per batch.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, FOUNDATION, HARDENING } from "../core/errors.js";
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
 * Builds the error an unusable key gets: its 401 (`failure`, default the unknown-key one), or a 429 with
 * Retry-After past the IP's allowance.
 */
export function authFailureGuard(
  deps: AuthFailureDeps,
): (req: FastifyRequest, reply: FastifyReply, failure?: ApiError) => Promise<ApiError> {
  return async (req, reply, failure) => {
    deps.countFailure();
    const now = deps.nowMs();
    const windowStartMs = now - (now % WINDOW_MS);
    const n = await deps.counter.count(`authfail:${req.ip}`, windowStartMs, WINDOW_MS);
    // The route pattern and the IP only: never the presented key, never the URL's query.
    if (n % LOG_EVERY === 1)
      deps.log().warn({ ip: req.ip, route: req.routeOptions.url, failures: n }, "invalid API key presented");
    if (deps.perMinute === 0 || n <= deps.perMinute)
      return failure ?? new ApiError(401, FOUNDATION.apiKeyInvalid);
    const seconds = retryAfterSeconds(now, windowStartMs, WINDOW_MS);
    void reply.header("Retry-After", String(seconds));
    return new ApiError(429, HARDENING.authFailuresLimited(seconds));
  };
}
