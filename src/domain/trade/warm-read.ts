/**
 * The trade's state: from the warm venue state when the mint is watched and its state fresh (no upstream
 * call), otherwise the one getMultipleAccounts of read.ts, after which the mint and wallet get watched.
 */
import type { Chain } from "../../chain/chain.js";
import { readAccountsAt } from "../../chain/read-accounts.js";
import {
  interpretTradeRead,
  planText,
  type TradeRead,
  type TradeReadPlan,
} from "../../launch/trade-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import type { VenueState } from "../watch/venue-state.js";
import { createdBuyRead, type CreatedMints } from "../watch/created-mints.js";
import type { TradeIntent } from "./request.js";

/** Where the trade's state came from, and the slot it holds at. */
export interface TradeState {
  read: TradeRead;
  /** "event": a mint created lately, its state from the market feed's events (no read). */
  source: "cache" | "read" | "event";
  slot: number;
  /**
   * Set when the state came without the wallet's token accounts (a first buy of a watched mint): call it once
   * the trade is sent, so the wallet's accounts of the mint get subscribed off the request path.
   */
  adopt?: () => void;
}

/** What the trade needs of the warm venue state. */
export type TradeVenues = Pick<VenueState, "lookup" | "afterRead"> &
  Partial<Pick<VenueState, "lookupBuy" | "adopt" | "lookupWallet">> & {
    /** Mints seen created lately (the market feed's create events). */
    created?: Pick<CreatedMints, "lookup">;
  };

/**
 * Reads (or takes from the warm state) and routes the trade's accounts; `user` is the wallet's base58 key,
 * `account` the account whose interest in the mint the warm state records (issue 29).
 */
export async function tradeState(
  rpc: Pick<Chain["rpc"], "getMultipleAccounts">,
  venues: TradeVenues | undefined,
  intent: TradeIntent,
  user: string,
  account?: number,
): Promise<TradeState> {
  const plan = tradeReadPlanOf(intent.mint, user, intent.pool);
  const hit = venues?.lookup(plan, account) ?? null;
  if (hit !== null) return { read: interpretTradeRead(plan, hit.accounts), source: "cache", slot: hit.slot };
  if (intent.action === "buy") {
    const warm = firstBuyState(venues, plan, account) ?? createdBuyState(venues, plan, account);
    if (warm !== null) return warm;
  }
  const { accounts, slot } = await readAccountsAt({ rpc }, plan.addresses);
  const read = interpretTradeRead(plan, accounts);
  venues?.afterRead(plan, accounts, slot, account);
  return { read, source: "read", slot };
}

/**
 * The first buy of a watched mint by a wallet whose own account is warm but whose token accounts of the mint
 * are not subscribed: a curve buy creates its token account idempotently and reads no token balance, so the
 * warm state suffices. A pool buy (which wraps SOL in an account it must know about) still reads.
 */
function firstBuyState(
  venues: TradeVenues | undefined,
  plan: TradeReadPlan,
  account: number | undefined,
): TradeState | null {
  const adopt = venues?.adopt?.bind(venues);
  const partial = venues?.lookupBuy?.(plan, account) ?? null;
  if (partial === null || adopt === undefined) return null;
  const read = interpretTradeRead(plan, partial.accounts);
  if (read.venue !== "bonding_curve") return null;
  return { read, source: "cache", slot: partial.slot, adopt: () => adopt(plan, account) };
}

/**
 * A buy of a mint seen created within the last slots, by a wallet whose own account is warm: the curve from the
 * create event (and the curve trades since), the token accounts taken as absent. The mint and the wallet's
 * accounts of it get watched once the buy is out.
 */
function createdBuyState(
  venues: TradeVenues | undefined,
  plan: TradeReadPlan,
  account: number | undefined,
): TradeState | null {
  const adopt = venues?.adopt?.bind(venues);
  if (plan.explicitPool !== null || adopt === undefined || venues?.lookupWallet === undefined) return null;
  const created = venues.created?.lookup(planText(plan, "mint")) ?? null;
  if (created === null) return null;
  const wallet = venues.lookupWallet(planText(plan, "user"));
  if (wallet === null) return null;
  const read = createdBuyRead(created, plan.user, BigInt(wallet.account?.lamports ?? 0));
  return { read, source: "event", slot: created.slot, adopt: () => adopt(plan, account) };
}
