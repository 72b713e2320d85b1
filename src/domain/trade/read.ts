/**
 * The single account read of a trade (one getMultipleAccounts: routing, balances, curve or pool state), shared
 * by the trade endpoint and an existing-token bundle leg.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import { interpretTradeRead, tradeReadPlan, type TradeRead } from "../../launch/trade-accounts.js";
import { readAccounts } from "../../chain/read-accounts.js";
import type { TradeIntent } from "./request.js";

/** Reads and routes the trade's accounts in one batch; a failed read is a 502 with the RPC's detail. */
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
  return interpretTradeRead(plan, await readAccounts({ rpc }, plan.addresses));
}
