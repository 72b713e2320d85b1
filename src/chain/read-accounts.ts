import type { PublicKey } from "@solana/web3.js";
import { EXECUTION } from "../core/errors.js";
import { ChainError } from "./chain-error.js";
import type { AccountInfo, RpcClient } from "./rpc-client.js";
import { upstreamDetail } from "./upstream-errors.js";

/**
 * One getMultipleAccounts for `keys` (null = the account does not exist); an upstream failure is an
 * `rpc_unavailable` naming the RPC's detail.
 */
export async function readAccounts(
  chain: { rpc: Pick<RpcClient, "getMultipleAccounts"> },
  keys: PublicKey[],
): Promise<(AccountInfo | null)[]> {
  let value: (AccountInfo | null)[];
  try {
    ({ value } = await chain.rpc.getMultipleAccounts(keys));
  } catch (e) {
    throw new ChainError("rpc_unavailable", EXECUTION.readFailedPrefix + upstreamDetail(e));
  }
  if (value.length !== keys.length) {
    throw new ChainError(
      "rpc_unavailable",
      `${EXECUTION.readFailedPrefix}getMultipleAccounts returned ${value.length} of ${keys.length} accounts`,
    );
  }
  return value;
}

/** As readAccounts, with the slot the node read them at (the trade's `state_slot` when it reads). */
export async function readAccountsAt(
  chain: { rpc: Pick<RpcClient, "getMultipleAccounts"> },
  keys: PublicKey[],
): Promise<{ accounts: (AccountInfo | null)[]; slot: number }> {
  let res: { slot: number; value: (AccountInfo | null)[] };
  try {
    res = await chain.rpc.getMultipleAccounts(keys);
  } catch (e) {
    throw new ChainError("rpc_unavailable", EXECUTION.readFailedPrefix + upstreamDetail(e));
  }
  if (res.value.length !== keys.length) {
    throw new ChainError(
      "rpc_unavailable",
      `${EXECUTION.readFailedPrefix}getMultipleAccounts returned ${res.value.length} of ${keys.length} accounts`,
    );
  }
  return { accounts: res.value, slot: res.slot };
}
