/**
 * The single account read of a trade (one getMultipleAccounts: routing, balances, curve or pool state), shared
 * by the trade endpoint and an existing-token bundle leg.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../chain/chain.js";
import { isUpstreamError, upstreamDetail } from "../chain/upstream-errors.js";
import { interpretTradeRead, tradeReadPlan, type TradeRead } from "../launch/trade-accounts.js";
import { ApiError, EXECUTION } from "./errors.js";
import type { TradeIntent } from "./trade-request.js";

/** Reads and routes the trade's accounts in one batch; an upstream failure is a 502 with its detail. */
export async function readTrade(
  rpc: Pick<Chain["rpc"], "getMultipleAccounts">,
  intent: TradeIntent,
  user: PublicKey,
): Promise<TradeRead> {
  const plan = tradeReadPlan({
    mint: new PublicKey(intent.mint),
    user,
    pool: intent.pool === null ? null : new PublicKey(intent.pool),
  });
  let accounts;
  try {
    accounts = (await rpc.getMultipleAccounts(plan.addresses)).value;
  } catch (e) {
    if (isUpstreamError(e)) throw new ApiError(502, EXECUTION.readFailedPrefix + upstreamDetail(e));
    throw e;
  }
  return interpretTradeRead(plan, accounts);
}
