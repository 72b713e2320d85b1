/**
 * Request budgets by route class (reads, checks, executions), held per key AND per account (issue 29: the
 * keys of one account share its budget), a per-IP budget for public routes, and a `refusals` budget that
 * requests refused at authorization spend instead. Counted in fixed windows by a RequestCounter (memory,
 * PostgreSQL or Redis), a key and its account in one round trip. Over budget: 429 with Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { HardeningSettings } from "../../config/hardening.js";
import { ApiError, HARDENING } from "../../core/errors.js";
import type { KeyRecord } from "../../store/index.js";
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

/** One counter a request spends: its name, its limit and the 429 text when it is over. */
interface Budget {
  name: string;
  limit: number;
  detail: (seconds: number) => string;
}

/**
 * The counters an authenticated request of `cls` spends: its key's and its account's. A counter whose limit
 * is 0 (unlimited) is left out; so is the key's when the account's limit is no larger (the account's count
 * is always at least the key's, so it alone decides: one counter row per request in the default setup).
 */
export function keyBudgets(
  settings: HardeningSettings,
  cls: "reads" | "checks" | "executions" | "refusals",
  key: Pick<KeyRecord, "id" | "accountId">,
): Budget[] {
  const perKey = settings.budgets[cls];
  const perAccount = settings.accountBudgets[cls];
  const win = settings.rateWindowMs / 1000;
  const label = cls === "refusals" ? "refused" : cls;
  const out: Budget[] = [];
  if (perKey > 0 && (perAccount === 0 || perAccount > perKey))
    out.push({
      name: `${cls}:key:${key.id}`,
      limit: perKey,
      detail: (s) => HARDENING.rateLimited(label, perKey, win, s),
    });
  if (perAccount > 0)
    out.push({
      name: `${cls}:account:${key.accountId}`,
      limit: perAccount,
      detail: (s) => HARDENING.accountRateLimited(label, perAccount, win, s),
    });
  return out;
}

/** Counts `budgets` at once; the 429 of the first one over its limit, or undefined within all of them. */
async function spend(
  deps: { counter: RequestCounter; nowMs: () => number; windowMs: number },
  budgets: readonly Budget[],
  reply: FastifyReply,
): Promise<ApiError | undefined> {
  if (budgets.length === 0) return undefined;
  const now = deps.nowMs();
  const windowStartMs = now - (now % deps.windowMs);
  const counts = await deps.counter.countAll(
    budgets.map((b) => b.name),
    windowStartMs,
    deps.windowMs,
  );
  const over = budgets.findIndex((b, i) => counts[i]! > b.limit);
  if (over < 0) return undefined;
  const seconds = retryAfterSeconds(now, windowStartMs, deps.windowMs);
  void reply.header("Retry-After", String(seconds));
  return new ApiError(429, budgets[over]!.detail(seconds));
}

/**
 * The error a request refused at authorization (403 scope or frozen) gets: the refusal itself, or 429 once
 * its key or account has spent the `refusals` budget, so a flood of refusals is throttled like any other.
 */
export function refusalGuard(deps: {
  settings: HardeningSettings;
  counter: RequestCounter;
  nowMs: () => number;
}): (req: FastifyRequest, reply: FastifyReply, refusal: ApiError, key: KeyRecord) => Promise<ApiError> {
  const windowMs = deps.settings.rateWindowMs;
  return async (_req, reply, refusal, key) => {
    const budgets = keyBudgets(deps.settings, "refusals", key);
    return (await spend({ ...deps, windowMs }, budgets, reply)) ?? refusal;
  };
}

/** Registers the budget hook; install it after the auth hook (it reads the authenticated key). */
export function installBudgets(
  app: FastifyInstance,
  deps: { settings: HardeningSettings; counter: RequestCounter; nowMs: () => number },
): void {
  const windowMs = deps.settings.rateWindowMs;
  const spendDeps = { ...deps, windowMs };
  const win = windowMs / 1000;
  // A callback hook: the counter's promise is the only one (an async hook added its own and a microtask turn).
  app.addHook("onRequest", (req, reply, done) => {
    const routeClass = classifyRoute(req);
    if (routeClass === "none") return done();
    // Per key and account on authenticated routes, whichever key it is; per client IP on public ones (and on
    // the stream's upgrade without a header).
    const key = req.custodyKey ?? (req.apiKey ? { id: req.apiKey.id, accountId: req.apiKey.id } : null);
    let budgets: Budget[];
    if (key !== null && routeClass !== "public") budgets = keyBudgets(deps.settings, routeClass, key);
    else {
      const limit = deps.settings.budgets[routeClass];
      if (limit === 0) return done();
      budgets = [
        {
          name: `${routeClass}:ip:${req.ip}`,
          limit,
          detail: (s) => HARDENING.rateLimited(routeClass, limit, win, s),
        },
      ];
    }
    if (budgets.length === 0) return done();
    // Anything `spend` throws still reaches `done` (never a hung request).
    spend(spendDeps, budgets, reply).then(
      (refusal) => (refusal === undefined ? done() : done(refusal)),
      done,
    );
  });
}
