/** The figures the record-time policy step reads from the deployment: compute-unit limits and wallet balances. */
import { PublicKey } from "@solana/web3.js";
import type { Chain, OperationKind } from "../../chain/chain.js";
import type { Config } from "../../config/config.js";

/** The compute-unit limit of a budget (bounds the priority fee a transaction pays); unknown: the transfer's. */
export function computeUnitLimit(config: Config, budget: OperationKind | undefined): number {
  if (budget === "trade") return config.computeUnitLimitTrade;
  if (budget === "create") return config.computeUnitLimitCreate;
  if (budget === "claim") return config.computeUnitLimitClaim;
  return config.computeUnitLimitTransfer;
}

/** The SOL balance of a wallet from the chain's RPC (the spend bound of a request without a body amount). */
export function balanceReader(chain: Chain): (wallet: string) => Promise<bigint> {
  return async (wallet) => (await chain.rpc.getBalance(new PublicKey(wallet))).value;
}
