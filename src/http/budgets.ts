/**
 * Per-key request budgets by route class (reads, checks, executions) and a per-IP budget for public routes,
 * counted in fixed windows by a RequestCounter (memory, PostgreSQL or Redis). Over budget: 429 with
 * Retry-After and a `detail`, like every other error.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { HardeningSettings } from "../config/hardening.js";
import { ApiError, HARDENING } from "../core/errors.js";
import { isPublicRoute } from "./auth.js";
import type { RequestCounter } from "./request-counters.js";

/** The budget a route spends: one of the settings' classes, or none (setup keeps its own one-per-5-s rule). */
export type RateClass = "reads" | "checks" | "executions" | "public" | "none";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Overrides the route class derived from method and path (see classifyRoute). */
    rateClass?: RateClass;
  }
}

/** The class of a request: the route's own `rateClass`, else by method and path. */
export function classifyRoute(req: FastifyRequest): RateClass {
  // Read once: Fastify builds a new routeOptions object (and asks the router a question) on every access.
  const { url, config } = req.routeOptions;
  const own = url === undefined ? undefined : config.rateClass;
  if (own !== undefined) return own;
  if (url === undefined || isPublicRoute(url, config)) return "public";
  if (req.method === "GET" || req.method === "HEAD") return "reads";
  // Checks and quotes read accounts from the RPC for every address they name, and sign nothing.
  if (/\/(check|quote)s?$/.test(url)) return "checks";
  return "executions";
}

/** Seconds from `nowMs` to the end of the window that started at `windowStartMs`; at least 1. */
export function retryAfterSeconds(nowMs: number, windowStartMs: number, windowMs: number): number {
  return Math.max(1, Math.ceil((windowStartMs + windowMs - nowMs) / 1000));
}

/** Registers the budget hook; install it after the auth hook (it reads the authenticated key). */
export function installBudgets(
  app: FastifyInstance,
  deps: { settings: HardeningSettings; counter: RequestCounter; nowMs: () => number },
): void {
  const windowMs = deps.settings.rateWindowMs;
  // A callback hook: the counter's promise is the only one (an async hook added its own and a microtask turn).
  app.addHook("onRequest", (req, reply, done) => {
    const routeClass = classifyRoute(req);
    if (routeClass === "none") return done();
    const limit = deps.settings.budgets[routeClass];
    if (limit === 0) return done();
    // Per key on authenticated routes, whichever key it is; per client IP on public ones.
    // (undefined, not null, on routes of plugins registered before the auth decoration: swagger-ui)
    // The authenticating key itself (a sub-key is budgeted apart from its account's root key).
    const key = req.custodyKey ?? req.apiKey ?? null;
    const who = key !== null ? `key:${key.id}` : `ip:${req.ip}`;
    const now = deps.nowMs();
    const windowStartMs = now - (now % windowMs);
    // The refusal is built in the first step, so anything it throws still reaches `done` (never a hung request).
    deps.counter
      .count(`${routeClass}:${who}`, windowStartMs, windowMs)
      .then((count) => {
        if (count <= limit) return undefined;
        const seconds = retryAfterSeconds(now, windowStartMs, windowMs);
        void reply.header("Retry-After", String(seconds));
        return new ApiError(429, HARDENING.rateLimited(routeClass, limit, windowMs / 1000, seconds));
      })
      .then((refusal) => (refusal === undefined ? done() : done(refusal)), done);
  });
}
