/**
 * The trade read plans of a watch's mints for the account's wallets, built when the watch is asked: a plan
 * derives the wallet's token accounts of the mint and the curve's program addresses (several
 * milliseconds on a loaded machine), which the sniper's first buy would otherwise pay on its own path; the
 * repeat buy takes the memoized plan. Capped: the memo keeps 1,024 plans, shared by every trade.
 */
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";

/** At most this many (mint, wallet) plans per watch request: the default wallet's first. */
export const PLAN_WARMUP_MAX = 64;

/** Builds (memoizes) the curve trade plans of `mints` for `wallets` (the default wallet first), up to the cap. */
export function warmTradePlans(
  mints: readonly string[],
  wallets: readonly { publicKey: string; isDefault: boolean }[],
  max = PLAN_WARMUP_MAX,
): number {
  const ordered = [...wallets].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  let n = 0;
  for (const w of ordered)
    for (const m of mints) {
      if (n >= max) return n;
      tradeReadPlanOf(m, w.publicKey, null);
      n++;
    }
  return n;
}
