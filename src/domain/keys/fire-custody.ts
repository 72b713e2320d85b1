/**
 * The key's custody outside an HTTP request (a fired order, issue 31): the same checks the custody hook runs
 * on a request (hooks/custody.ts `prepare`) for a key and a spend plan — the key alive and unfrozen with the
 * scope, the wallet binding, the body-decidable policy rules and the 24 h pre-check — then a custody context,
 * the store bound to it (record-time fee check and 24 h reservation), the spend guard (key re-read and
 * worst case before signing) and the routed-venue check. Small on purpose: one step of the execution pipeline
 * once policy becomes one.
 */
import { ApiError } from "../../core/errors.js";
import type { KeyRecord, Store } from "../../store/index.js";
import type { SpendGuard, VenueCheck } from "../execution/types.js";
import {
  checkRoutedVenue,
  contextPolicy,
  custodyStore,
  dailyCapVerdict,
  dailyCharges,
  type CustodyContext,
} from "./custody-store.js";
import type { RecordPolicyDeps } from "./policy-step.js";
import { authorize, mayUseWallet } from "./scopes.js";
import { createSpendGuard } from "./spend-guard.js";
import { checkPlan, type SpendPlan } from "./spend.js";
import { CUSTODY } from "./texts.js";
import type { Scope } from "./scopes.js";

/** A refusal outside a request: the rule (a policy rule, `frozen`, `scope`, `wallet`, `key`) and its text. */
export interface FireRefusal {
  rule: string;
  detail: string;
}

/** A dry run's `policy` field: whether the key's policy lets it through, and the refusing rule and text if not. */
export function policyView(verdict: FireRefusal | null): {
  allowed: boolean;
  rule: string | null;
  detail: string | null;
} {
  return { allowed: verdict === null, rule: verdict?.rule ?? null, detail: verdict?.detail ?? null };
}

/** What an execution outside a request runs with once its key's custody passed. */
export interface FireCustody {
  ctx: CustodyContext;
  store: Store;
  guard: SpendGuard;
  checkVenue: VenueCheck;
}

/** What the checks read. `readKey`: where the key comes from (default the store's findKey, read now). */
export type FireCustodyDeps = Omit<RecordPolicyDeps, "store"> & {
  store: Store;
  readKey?: (accountId: number, keyId: number) => Promise<KeyRecord | undefined>;
};

const NO_WALLETS: ReadonlySet<string> = new Set();

/** The refusal of `key` with `scope` at `now` (revoked, expired, frozen, scope), or null. */
export function keyRefusal(key: KeyRecord | undefined, scope: Scope, now: Date): FireRefusal | null {
  if (key === undefined) return { rule: "key", detail: CUSTODY.keyRevoked };
  try {
    authorize(key, scope, now);
    return null;
  } catch (e) {
    if (e instanceof ApiError) return { rule: String(e.extra.rule ?? "key"), detail: e.detail };
    throw e;
  }
}

/**
 * The policy verdict on `plan` for `key` signing with `wallet`: the wallet binding, the body-decidable rules,
 * the 24 h pre-check against the key's cap and every capped key above it. Null when it passes.
 */
export async function planRefusal(
  deps: Pick<FireCustodyDeps, "store" | "clock">,
  key: KeyRecord,
  plan: SpendPlan,
  wallet: string,
): Promise<FireRefusal | null> {
  if (!mayUseWallet(key, wallet)) return { rule: "wallet", detail: CUSTODY.walletNotAllowed(wallet) };
  const ctx: CustodyContext = { key, wallets: new Set(), executionIds: [] };
  const policy = contextPolicy(ctx);
  const own =
    policy.destinationsAllow !== undefined
      ? new Set(await deps.store.listVouchedWallets(key.accountId))
      : NO_WALLETS;
  const verdict = checkPlan(policy, plan, own);
  if (verdict !== null) return verdict;
  if (policy.maxSolPer24h === undefined && dailyCharges(key).length === 0) return null;
  if (plan.amountLamports === null) return null;
  const needed = plan.amountLamports + plan.rentLamports + plan.tipLamports;
  return dailyCapVerdict(deps, dailyCharges(key), plan.kind, needed);
}

/**
 * What a fire's record commit checks for `key` (OrderTransition's LiveCheck, less the wallet): the ids of the key,
 * every key above it and the account's root key, each once; and their versions as `key` was read,
 * `<rows>:<sum>`. A claim commits only while the rows still sum to it, and versions only grow, so any change since
 * the read fails it.
 */
export function liveCheckOf(key: KeyRecord): { keys: number[]; versions: string } {
  const versions = new Map<number, number>([[key.id, key.version]]);
  for (const a of key.ancestors ?? []) if (!versions.has(a.id)) versions.set(a.id, a.version);
  if (!versions.has(key.accountId)) versions.set(key.accountId, key.rootVersion);
  let sum = 0;
  for (const v of versions.values()) sum += v;
  return { keys: [...versions.keys()], versions: `${versions.size}:${sum}` };
}

/** The ids of liveCheckOf. */
export const liveKeysOf = (key: KeyRecord): number[] => liveCheckOf(key).keys;

/** The versions of liveCheckOf. */
export const keyVersionsOf = (key: KeyRecord): string => liveCheckOf(key).versions;

/**
 * Re-reads key `keyId` of `accountId` and checks it and `plan` as a request would be checked; the custody
 * to execute with, or the refusal. `keyCheck`: where the key is checked again before anything is sent (see
 * createSpendGuard): re-read before signing, or by the commit that records the execution.
 */
export async function fireCustody(
  deps: FireCustodyDeps,
  ids: { accountId: number; keyId: number },
  scope: Scope,
  plan: SpendPlan,
  wallet: string,
  keyCheck: "sign" | "record" = "sign",
): Promise<FireCustody | FireRefusal> {
  const key = await (deps.readKey ?? deps.store.findKey.bind(deps.store))(ids.accountId, ids.keyId);
  const refused = keyRefusal(key, scope, deps.clock()) ?? (await planRefusal(deps, key!, plan, wallet));
  if (refused !== null) return refused;
  const ctx: CustodyContext = { key: key!, wallets: new Set([wallet]), executionIds: [], plan };
  return {
    ctx,
    store: custodyStore(deps.store, { current: () => ctx }),
    // The guard carries the record-time policy step (policy-step.ts) the pipeline runs before each insert.
    guard: createSpendGuard(ctx, deps, keyCheck),
    checkVenue: (venue) => checkRoutedVenue(ctx, venue),
  };
}
