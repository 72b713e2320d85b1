/**
 * The trade's state: from the warm venue state when the mint is watched and its state fresh (no upstream
 * call), otherwise the one getMultipleAccounts of read.ts, after which the mint and wallet get watched.
 */
import type { Chain } from "../../chain/chain.js";
import { readAccountsAt } from "../../chain/read-accounts.js";
import { interpretTradeRead, type TradeRead } from "../../launch/trade-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import type { VenueState } from "../watch/venue-state.js";
import type { TradeIntent } from "./request.js";

/** Where the trade's state came from, and the slot it holds at. */
export interface TradeState {
  read: TradeRead;
  source: "cache" | "read";
  slot: number;
}

/**
 * Reads (or takes from the warm state) and routes the trade's accounts; `user` is the wallet's base58 key,
 * `account` the account whose interest in the mint the warm state records (issue 29).
 */
export async function tradeState(
  rpc: Pick<Chain["rpc"], "getMultipleAccounts">,
  venues: Pick<VenueState, "lookup" | "afterRead"> | undefined,
  intent: TradeIntent,
  user: string,
  account?: number,
): Promise<TradeState> {
  const plan = tradeReadPlanOf(intent.mint, user, intent.pool);
  const hit = venues?.lookup(plan, account) ?? null;
  if (hit !== null) return { read: interpretTradeRead(plan, hit.accounts), source: "cache", slot: hit.slot };
  const { accounts, slot } = await readAccountsAt({ rpc }, plan.addresses);
  const read = interpretTradeRead(plan, accounts);
  venues?.afterRead(plan, accounts, slot, account);
  return { read, source: "read", slot };
}
