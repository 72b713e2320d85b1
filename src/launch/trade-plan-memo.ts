/**
 * Trade read plans by the base58 texts of mint, user and pool. A plan is a pure function of the three keys;
 * building one decodes two or three keys, looks up eight program addresses and encodes ten addresses in
 * base58 (the warm state's keys): tens of microseconds per trade. A repeat trade of a wallet on a mint takes
 * the plan kept from its last one, with the same PublicKey instances (whose bytes the message compiler keeps).
 */
import { PublicKey } from "@solana/web3.js";
import { LruMap } from "../core/lru.js";
import { tradeReadPlan, type TradeReadPlan } from "./trade-accounts.js";

// About 1.5 KB a plan beyond the keys the PDA memo already holds: at most 1.5 MB.
const PLAN_CAPACITY = 1_024;
const plans = new LruMap<string, TradeReadPlan>(PLAN_CAPACITY);

/** Number of plans kept (for tests). */
export function tradePlanMemoSize(): number {
  return plans.size;
}

/** Whether a plan of these keys is kept (for tests; leaves the recency order alone). */
export function hasTradePlan(mint: string, user: string, pool: string | null): boolean {
  return plans.has(pool === null ? `${mint}:${user}` : `${mint}:${user}:${pool}`);
}

/** `tradeReadPlan` of the keys these base58 texts name, memoized; the plan is shared, so it is frozen. */
export function tradeReadPlanOf(mint: string, user: string, pool: string | null): TradeReadPlan {
  // Base58 has no ':', so two different triples never share a key.
  const key = pool === null ? `${mint}:${user}` : `${mint}:${user}:${pool}`;
  const kept = plans.get(key);
  if (kept !== undefined) return kept;
  const plan = tradeReadPlan({
    mint: new PublicKey(mint),
    user: new PublicKey(user),
    pool: pool === null ? null : new PublicKey(pool),
  });
  Object.freeze(plan.addresses);
  Object.freeze(plan.addressTexts);
  Object.freeze(plan.keys);
  Object.freeze(plan);
  plans.set(key, plan);
  return plan;
}
