/**
 * The custody hooks of issue 19 around every authenticated request: the policy rules decidable from the body
 * (before anything is signed), the request context the custody store reads (wallet binding, spend
 * reservation), and one activity-log row per request that changes something, refusals sampled (issue 29).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../../config/config.js";
import { ApiError } from "../../core/errors.js";
import {
  contextPolicy,
  dailyCapRefusal,
  dailyCharges,
  type CustodyContext,
} from "../../domain/keys/custody-store.js";
import type { PolicyRule } from "../../domain/keys/policy.js";
import { isDryRun } from "../../core/request-fields.js";
import { mayUseWallet, refusal, walletRefusal } from "../../domain/keys/scopes.js";
import { checkPlan, dailyCapDetail, spendPlanOf, SPEND_WINDOW_MS } from "../../domain/keys/spend.js";
import { createSpendGuard } from "../../domain/keys/spend-guard.js";
import type { RecordPolicyDeps } from "../../domain/keys/policy-step.js";
import type { Store } from "../../store/index.js";
import type { RequestCounter } from "./request-counters.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The custody context of an authenticated request (set in preHandler). */
    custodyContext: CustodyContext | null;
    /** The `rule` of a 403 refusal, for the activity log. */
    custodyRule: string | null;
    /** The store bound to this request's custody context (set in preHandler); routes reach it by `storeOf`. */
    custodyStore: Store | null;
  }
}

/** The store of this request, bound to its key's custody context (wallet binding, spend reservation). */
export function storeOf(req: FastifyRequest): Store {
  const store = req.custodyStore;
  if (store === null)
    throw new Error("custody: the request's store was asked for before the custody hook ran");
  return store;
}

/** `deps` with this request's own store in place of the app's (which refuses the custody members). */
export function withRequestStore<D extends { store: unknown }>(req: FastifyRequest, deps: D): D {
  // The request's store is the whole Store, so it is also whatever narrower slice D names.
  return { ...deps, store: storeOf(req) as D["store"] };
}

/** The tip a single transaction pays to the configured relay (none when the relay takes no tip). */
export function relayTip(config: Pick<Config, "relayTipAccounts" | "relayTipLamports">): bigint {
  return config.relayTipAccounts.length > 0 ? config.relayTipLamports : 0n;
}

// The own-wallet set of a key without a destinations rule: only read (checkPlan takes a ReadonlySet).
const NO_WALLETS: ReadonlySet<string> = new Set();

/** Applies the body-decidable policy rules and the 24 h pre-check; returns the request's custody context. */
async function prepare(
  req: FastifyRequest,
  deps: { store: Store; config: Config; clock: () => Date } & Omit<RecordPolicyDeps, "store">,
): Promise<CustodyContext | null> {
  const key = req.custodyKey;
  if (key === null || req.apiKey === null) return null;
  const ctx: CustodyContext = { key, wallets: new Set(), executionIds: [] };
  const params = req.params as Record<string, unknown> | undefined;
  if (typeof params?.public_key === "string") {
    // `{public_key}` always names a managed wallet: a bound key is refused before any store or chain access.
    if (!mayUseWallet(key, params.public_key)) throw walletRefusal(params.public_key);
    ctx.wallets.add(params.public_key);
  }
  const parsed = req.method === "POST" ? req.execution : null;
  if (parsed === null) return ctx;
  const kind = parsed.kind.kind;
  // Issue 29: the key re-read and the worst case judged between the build and the signature.
  ctx.guard = createSpendGuard(ctx, deps);
  // A body its parser refused: no plan; the run answers the parser's 400 before anything is recorded.
  if (!parsed.ok) return ctx;
  // Issue 30: planned from the intent the body was parsed into once, by the kind's own planner.
  const plan = spendPlanOf(
    kind,
    parsed.kind.plan,
    parsed.intent,
    relayTip(deps.config),
    req.requestFees ?? {},
  );
  ctx.plan = plan;
  ctx.dryRun = isDryRun(req.body);
  // A dry run reports a policy refusal in its answer and goes on (scope and wallet binding still refuse).
  const refuse = (detail: string, rule: PolicyRule): CustodyContext => {
    if (ctx.dryRun !== true) throw refusal(detail, rule);
    ctx.verdict = { rule, detail };
    return ctx;
  };
  if (key.wallets !== null) {
    // Decided before any chain access: the signers the body names, or the default wallet it falls back to.
    const signers = [...plan.signers];
    if (plan.usesDefault) {
      const def = await deps.store.findDefaultWallet(key.accountId);
      if (def !== undefined) {
        signers.push(def.publicKey);
        ctx.defaultWallet = def;
      }
    }
    for (const w of signers) if (!mayUseWallet(key, w)) throw walletRefusal(w);
  }
  const policy = contextPolicy(ctx);
  const own =
    policy.destinationsAllow !== undefined
      ? // Issue 29: only wallets a key that could pay anywhere added count as own (domain/keys/wallet-origin.ts).
        new Set(await deps.store.listVouchedWallets(key.accountId))
      : NO_WALLETS;
  const verdict = checkPlan(policy, plan, own);
  if (verdict !== null) return refuse(verdict.detail, verdict.rule);
  if (policy.maxSolPer24h !== undefined && plan.amountLamports !== null) {
    // A pre-check so most refusals come before signing; the reservation at record time is the one that holds
    // under concurrency. Issue 29: against the key's own cap and each capped key above it.
    const needed = plan.amountLamports + plan.rentLamports + plan.tipLamports;
    const since = deps.clock().getTime() - SPEND_WINDOW_MS;
    for (const c of dailyCharges(key)) {
      const used = await deps.store.spentLamports(c.keyId, since);
      if (used + needed <= c.capLamports) continue;
      const detail = dailyCapDetail(kind, used, c.capLamports, needed);
      if (ctx.dryRun !== true) throw dailyCapRefusal(detail, c.keyId);
      return refuse(detail, "max_sol_per_24h");
    }
  }
  return ctx;
}

/** Declares the request fields the custody hooks set (null until they do); see declareRequestFields in app.ts. */
export function declareCustodyFields(app: FastifyInstance): void {
  app.decorateRequest("custodyContext", null);
  app.decorateRequest("custodyRule", null);
  app.decorateRequest("custodyStore", null);
}

/** The window in which refusals of one key, route and rule are sampled into the activity log. */
export const REFUSAL_LOG_WINDOW_MS = 60_000;

/**
 * How many refusals the activity row of the `n`th refusal (of one key, route and rule in a window) stands
 * for, or 0 when it writes no row: rows at the 1st, 2nd, 4th, 8th… refusal, each counting those since the
 * previous row. A flood of N refusals writes about log2(N) rows, and the rows add up to more than N / 2.
 */
export function refusalRowCount(n: number): number {
  if (n < 1 || (n & (n - 1)) !== 0) return 0;
  return n === 1 ? 1 : n / 2;
}

/** The key a `/v1/keys/:id…` route acts on (the log said "freeze" without saying which key). */
export function targetKeyOf(
  route: string | undefined,
  params: Record<string, unknown> | undefined,
): number | null {
  if (route === undefined || !route.startsWith("/v1/keys/:id")) return null;
  const id = params?.id;
  return typeof id === "string" && /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647
    ? Number(id)
    : null;
}

/**
 * Installs the custody hooks; `bind` makes the store a request's handler uses from its context (an explicit
 * binding: an AsyncLocalStorage cost a promise hook on every promise of the process, about 8 % of a trade).
 */
export function installCustody(
  app: FastifyInstance,
  deps: {
    store: Store;
    config: Config;
    clock: () => Date;
    bind: (ctx: CustodyContext | null) => Store;
    /** Compute-unit limit of a kind and wallet balances: the record-time policy step reads them. */
    computeUnitLimit: RecordPolicyDeps["computeUnitLimit"];
    balanceOf?: RecordPolicyDeps["balanceOf"];
    /** Counts refusals per key, route and rule (the activity log samples them); shared like the budgets. */
    counter: RequestCounter;
  },
): void {
  app.addHook("preHandler", (req, _reply, done) => {
    prepare(req, deps).then(
      (ctx) => {
        req.custodyContext = ctx;
        req.custodyStore = deps.bind(ctx);
        done();
      },
      (e: unknown) => done(e as Error),
    );
  });
  app.addHook("onError", (req, _reply, err, done) => {
    if (err instanceof ApiError && typeof err.extra.rule === "string") req.custodyRule = err.extra.rule;
    done();
  });
  // Written before the response leaves (onSend), so a caller never sees an answer whose row is missing.
  app.addHook("onSend", async (req, reply, payload) => {
    const key = req.custodyKey;
    if (key === null) return payload;
    const refused = req.custodyRule !== null;
    if (!refused && (req.method === "GET" || req.method === "HEAD")) return payload;
    // A dry run changes nothing: no activity row unless it was refused.
    if (!refused && req.custodyContext?.dryRun === true) return payload;
    // 401: no key is known to act; 429: a throttled request did nothing (a flood of them writes no row).
    if (reply.statusCode === 401 || reply.statusCode === 429) return payload;
    let refusals: number | undefined;
    if (refused) {
      // Issue 29: the append-only log must not grow with a refusal flood; it is sampled, never rewritten.
      const now = deps.clock().getTime();
      const windowStartMs = now - (now % REFUSAL_LOG_WINDOW_MS);
      const route = `refusal-log:${key.id}:${req.method} ${req.routeOptions.url ?? ""}:${req.custodyRule}`;
      try {
        const n = await deps.counter.count(route, windowStartMs, REFUSAL_LOG_WINDOW_MS);
        refusals = refusalRowCount(n);
      } catch {
        refusals = 1;
      }
      if (refusals === 0) return payload;
    }
    const ctx = req.custodyContext;
    const params = req.params as Record<string, unknown> | undefined;
    const wallets = new Set(ctx?.wallets ?? []);
    if (typeof params?.public_key === "string") wallets.add(params.public_key);
    try {
      await deps.store.insertActivity({
        accountId: key.accountId,
        at: deps.clock().toISOString(),
        keyId: key.id,
        keyName: key.name,
        method: req.method,
        route: req.routeOptions.url ?? req.url,
        wallets: [...wallets],
        executionId: ctx?.executionIds[0] ?? null,
        status: reply.statusCode,
        rule: req.custodyRule,
        ip: req.ip,
        ...(refusals !== undefined ? { refusals } : {}),
        targetKeyId: targetKeyOf(req.routeOptions.url, params),
      });
    } catch (e) {
      req.log.error({ err: { message: (e as Error).message } }, "activity row not written");
    }
    return payload;
  });
}
