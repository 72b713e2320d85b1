/**
 * The trade read plans of a watch's mints for the account's wallets, built when the watch is asked: a plan
 * derives the wallet's token accounts of the mint and the curve's program addresses (several
 * milliseconds on a loaded machine), which the sniper's first buy would otherwise pay on its own path; the
 * repeat buy takes the memoized plan. Capped: the memo keeps 1,024 plans, shared by every trade.
 * For a mint on its curve, the v3 buy's own program addresses (the curve's vaults of the mint and of wrapped SOL,
 * two searches per new mint) are derived too, from the warm state the watch has just seeded: no chain read.
 */
import { BONDING_CURVE } from "../../core/venues.js";
import { interpretTradeRead } from "../../launch/trade-accounts.js";
import { warmCurveV3Addresses } from "../../launch/v3-instructions.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import type { VenueState } from "./venue-state.js";

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

/**
 * `warmTradePlans`, then, for each (mint, wallet) whose curve the warm state holds, the curve buy's program
 * addresses derived (the first buy's instruction build then matches a repeat's). Returns the pairs warmed.
 */
export function warmFirstBuys(
  mints: readonly string[],
  wallets: readonly { publicKey: string; isDefault: boolean }[],
  venues: Pick<VenueState, "lookupBuy">,
  max = PLAN_WARMUP_MAX,
): number {
  warmTradePlans(mints, wallets, max);
  const ordered = [...wallets].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  let n = 0;
  let seen = 0;
  for (const w of ordered)
    for (const m of mints) {
      if (seen++ >= max) return n;
      const plan = tradeReadPlanOf(m, w.publicKey, null);
      // No account: the watch has recorded the interest already.
      const warm = venues.lookupBuy(plan);
      if (warm === null) continue;
      // Best effort: a mint the trade would refuse (not a launch mint, no curve) is refused by the trade itself.
      try {
        const read = interpretTradeRead(plan, warm.accounts);
        if (read.venue !== BONDING_CURVE) continue;
        warmCurveV3Addresses(read.mint, read.user, read.tokenProgram);
        n++;
      } catch {
        continue;
      }
    }
  return n;
}
