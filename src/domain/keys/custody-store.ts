/**
 * The store as every request sees it: wallet lookups honour the key's wallet binding (403 naming the wallet)
 * and an execution is recorded with the spend reservation the policy step decided (policy-step.ts), in the
 * same database transaction; the wrapper decides no policy. Outside a request (maintenance, reconciliation) the
 * wrapper passes every call through. The app binds one wrapper to each request (`current()` returns that
 * request's context) and hands routes a store whose custody members refuse (`requestOnlyStore`), so a route
 * reaches wallets and records only through its own request's wrapper; no domain service knows about keys.
 */
import type { KeyRecord, SpendCharge, Store } from "../../store/index.js";
import { ancestorCharges, effectivePolicy } from "./key-chain.js";
import { refusal, mayUseWallet, walletRefusal } from "./scopes.js";
import { storedPolicy, type Policy, type Venue } from "./policy.js";
import { vouchesForWallets } from "./wallet-origin.js";
import type { RecordDecision } from "./policy-step.js";
import {
  dailyCapDetail,
  SPEND_WINDOW_MS,
  venueVerdict,
  type PolicyVerdict,
  type SpendKind,
  type SpendPlan,
} from "./spend.js";
import { ApiError } from "../../core/errors.js";
import { overlay } from "../../core/overlay.js";
import type { SpendGuard } from "../execution/types.js";
import type { WorstCaseSpend } from "../execution/worst-case-spend.js";

/** What the custody layer knows about the request being served. */
export interface CustodyContext {
  key: KeyRecord;
  /** The key's policy, parsed once per request (see contextPolicy). */
  policy?: Policy;
  /** Set on execution routes whose body parsed. */
  plan?: SpendPlan;
  /** Wallets the request touched and executions it recorded (for the activity log). */
  wallets: Set<string>;
  executionIds: string[];
  /** A dry run (issue 19): policy refusals are reported in its answer, not thrown. */
  dryRun?: boolean;
  /** A dry run's policy refusal decided from the body, before anything was built. */
  verdict?: PolicyVerdict;
  /** The account's default wallet as the wallet-binding check read it (the request's own lookup reuses it). */
  defaultWallet?: Awaited<ReturnType<Store["findDefaultWallet"]>>;
  /** Issue 29: the checks between build and signature (spend-guard.ts); set on execution routes. */
  guard?: SpendGuard;
  /** Worst case of each transaction signed for this request, by signature (the 24 h reservation's figure). */
  spends?: Map<string, WorstCaseSpend>;
  /** Worst case of every transaction signed for this request so far (the per-execution cap's figure). */
  requestSpend?: WorstCaseSpend;
  /** The policy step's decision on each record of this request, by execution id (what its insert reserves). */
  recordDecisions?: Map<string, RecordDecision>;
}

/**
 * The request key's effective policy (issue 29: its own narrowed by every key above it): computed on first use
 * and kept on the context, so each rule check reads the same one.
 */
export function contextPolicy(ctx: CustodyContext): Policy {
  return (ctx.policy ??= effectivePolicy(ctx.key));
}

/**
 * Issue 29: the 24 h caps a request's spend is charged to, each key under its own cap: the key's own (when it
 * has one) first, then every capped key above it. Empty: nothing to reserve.
 */
export function dailyCharges(key: KeyRecord): SpendCharge[] {
  const own = storedPolicy(key.policy).maxSolPer24h;
  const up = key.root ? [] : ancestorCharges(key);
  return own === undefined ? up : [{ keyId: key.id, capLamports: own }, ...up];
}

/**
 * The 24 h caps on spending `needed` lamports more now: the verdict of the first of `charges` (the key's cap, then
 * those above it) that the spend would pass, or null.
 */
export async function dailyCapVerdict(
  deps: { store: Pick<Store, "spentLamports">; clock: () => Date },
  charges: readonly SpendCharge[],
  kind: SpendKind,
  needed: bigint,
): Promise<PolicyVerdict | null> {
  const since = deps.clock().getTime() - SPEND_WINDOW_MS;
  for (const c of charges) {
    const used = await deps.store.spentLamports(c.keyId, since);
    if (used + needed > c.capLamports)
      return { rule: "max_sol_per_24h", detail: dailyCapDetail(kind, used, c.capLamports, needed) };
  }
  return null;
}

/** The 403 of a 24 h cap, naming in `cap_key_id` the key whose cap refused (the request's key or one above). */
export function dailyCapRefusal(detail: string, capKeyId: number): ApiError {
  return new ApiError(403, detail, { rule: "max_sol_per_24h", cap_key_id: capKeyId });
}

/**
 * The `venues` rule on the venue an execution will actually use, once routed and before anything is signed
 * (a completed curve routes to launchswap without the body saying so): 403 `venues`, or on a dry run the
 * verdict its answer reports. No context (no key) or no venue rule: passes.
 */
export function checkRoutedVenue(ctx: CustodyContext | null | undefined, venue: Venue): void {
  if (ctx === null || ctx === undefined) return;
  const verdict = venueVerdict(contextPolicy(ctx), venue);
  if (verdict === null) return;
  if (ctx.dryRun !== true) throw refusal(verdict.detail, verdict.rule);
  ctx.verdict ??= verdict;
}

/** What the wrapper needs besides the store: the request's context (undefined outside a request). */
export interface CustodyStoreDeps {
  current: () => CustodyContext | undefined;
}

/** The members the custody wrapper decides: wallet binding, spend reservation, the record-time policy check. */
export const CUSTODY_MEMBERS = [
  "findWallet",
  "findDefaultWallet",
  "listWallets",
  "setDefaultWallet",
  "deleteWallet",
  "addWallet",
  "insertExecution",
] as const satisfies readonly (keyof Store)[];

/**
 * `store` as the app hands it to routes: every custody member refuses (an internal error, never a silent pass),
 * so a route that forgot to use its request's own wrapper fails instead of reaching a wallet around the key's
 * binding. Every other member passes through.
 */
export function requestOnlyStore<S extends object>(store: S): S {
  const refuse = async (): Promise<never> => {
    throw new Error("custody: a route used the app's store where its request's own store is required");
  };
  return overlay(store, Object.fromEntries(CUSTODY_MEMBERS.map((m) => [m, refuse])) as Partial<S>);
}

/** Wraps `store` with the key's wallet binding and spend reservation (see the file comment). */
export function custodyStore(store: Store, deps: CustodyStoreDeps): Store {
  const seen = (w: string): void => {
    deps.current()?.wallets.add(w);
  };
  const guard = (w: string): void => {
    const ctx = deps.current();
    if (ctx === undefined) return;
    if (!mayUseWallet(ctx.key, w)) throw walletRefusal(w);
    ctx.wallets.add(w);
  };

  return overlay<Store>(store, {
    async findWallet(apiKeyId, publicKey) {
      guard(publicKey);
      return store.findWallet(apiKeyId, publicKey);
    },
    async findDefaultWallet(apiKeyId) {
      const ctx = deps.current();
      // Read once per request: the binding check before anything was built already looked it up.
      const w =
        ctx?.defaultWallet !== undefined && apiKeyId === ctx.key.accountId
          ? ctx.defaultWallet
          : await store.findDefaultWallet(apiKeyId);
      if (w !== undefined) guard(w.publicKey);
      return w;
    },
    async listWallets(apiKeyId) {
      const all = await store.listWallets(apiKeyId);
      const ctx = deps.current();
      return ctx === undefined ? all : all.filter((w) => mayUseWallet(ctx.key, w.publicKey));
    },
    async setDefaultWallet(apiKeyId, publicKey) {
      guard(publicKey);
      return store.setDefaultWallet(apiKeyId, publicKey);
    },
    async deleteWallet(apiKeyId, publicKey) {
      guard(publicKey);
      return store.deleteWallet(apiKeyId, publicKey);
    },
    async addWallet(apiKeyId, wallet, makeDefault, maxWallets) {
      const ctx = deps.current();
      // Issue 29: the wallet remembers which key added it and whether it counts as the account's own.
      const origin =
        ctx === undefined
          ? undefined
          : { keyId: ctx.key.id, vouched: vouchesForWallets(ctx.key, contextPolicy(ctx)) };
      const added = origin === undefined ? wallet : { ...wallet, origin };
      const w = await store.addWallet(apiKeyId, added, makeDefault, maxWallets);
      seen(w.publicKey);
      return w;
    },
    async insertExecution(e) {
      const ctx = deps.current();
      if (ctx === undefined) return store.insertExecution(e);
      for (const w of e.wallets) ctx.wallets.add(w);
      // The policy step decided before this insert (policy-step.ts, called by the pipeline's recordPending);
      // deny by default: an execution route's record without that decision is an internal error, never a pass.
      const decision = ctx.recordDecisions?.get(e.id);
      if (decision === undefined && ctx.guard !== undefined)
        throw new Error("custody: an execution was recorded without the policy step's decision");
      const r =
        decision?.reservation === undefined || decision.reservation === null
          ? await store.insertExecution(e)
          : // The reservation in the same database transaction as the insert: atomic under concurrency.
            await store.insertExecutionReserving(e, decision.reservation);
      ctx.executionIds.push(e.id);
      return r;
    },
  });
}
