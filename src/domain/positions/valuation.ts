/**
 * Issue 33: a position's liquidation value — what selling every token held would return now, after the
 * venue's fees — with the trade's own quote math (quoteTrade, quoteFigures) on the warm venue state, or on one
 * read of the venue when asked. A thin curve therefore shows what a sale would really bring, not paper value.
 */
import type { Chain } from "../../chain/chain.js";
import { readAccountsAt } from "../../chain/read-accounts.js";
import { ApiError, TRADE_RULES } from "../../core/errors.js";
import { interpretTradeRead, type TradeRead } from "../../launch/trade-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import type { PositionRecord } from "../../store/index.js";
import { cachedTradeConfigs } from "../trade/configs.js";
import { venueStateOf } from "../trade/plan.js";
import { quoteFigures } from "../trade/quote-figures.js";
import { quoteTrade } from "../trade/quote.js";
import type { VenueState as WarmVenues } from "../watch/venue-state.js";
import type { ValuationMode } from "./query.js";
import { EMPTY_VALUATION, type Valuation } from "./view.js";

/** What a valuation reads. */
export interface ValuationDeps {
  chain?: Pick<Chain, "rpc" | "caches">;
  venues?: Pick<WarmVenues, "lookup" | "afterRead">;
}

const unvalued = (detail: string, source: Valuation["source"] = "none"): Valuation => ({
  source,
  slot: null,
  venue: null,
  liquidationValue: null,
  detail,
});

/** Values one position (`account`: whose interest in the mint the warm state records). */
export async function valuePosition(
  deps: ValuationDeps,
  p: Pick<PositionRecord, "wallet" | "mint" | "figures">,
  mode: ValuationMode,
  account?: number,
): Promise<Valuation> {
  if (p.figures.tokensHeld === 0n) return EMPTY_VALUATION;
  if (mode === "none") return unvalued("not valued (valuation=none)");
  if (deps.chain === undefined) return unvalued("no chain connection to value the position");
  // The plan the wallet's own trades read (and the warm state watches since): its wallet accounts are read and
  // ignored, the venue's are what the quote needs.
  const plan = tradeReadPlanOf(p.mint, p.wallet, null);
  let read: TradeRead;
  let source: "cache" | "read";
  let slot: number;
  try {
    const hit = deps.venues?.lookup(plan, account) ?? null;
    if (hit !== null) {
      read = interpretTradeRead(plan, hit.accounts);
      source = "cache";
      slot = hit.slot;
    } else if (mode === "read") {
      const got = await readAccountsAt({ rpc: deps.chain.rpc }, plan.addresses);
      read = interpretTradeRead(plan, got.accounts);
      deps.venues?.afterRead(plan, got.accounts, got.slot, account);
      source = "read";
      slot = got.slot;
    } else {
      return unvalued("the mint's venue is not in the warm state; ask with valuation=read");
    }
    const venue = venueStateOf(read, cachedTradeConfigs(deps.chain.caches));
    const value = (units: bigint): bigint => {
      try {
        const q = quoteTrade({ action: "sell", amount: { kind: "tokens", units }, venue, slippageBps: 0n });
        return quoteFigures(q, venue).sol;
      } catch (e) {
        // A sale returning nothing is worth nothing, not unvalued.
        if (e instanceof ApiError && e.detail === TRADE_RULES.tradeTooSmall) return 0n;
        throw e;
      }
    };
    return {
      source,
      slot,
      venue: venue.venue,
      liquidationValue: value(p.figures.tokensHeld),
      tokensOnChain: read.userTokenBalance,
    };
  } catch (e) {
    // The venue cannot take the sale (curve complete before migration, trade too small, unreadable): no value.
    if (e instanceof ApiError) return unvalued(e.detail);
    return unvalued(`the venue could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
