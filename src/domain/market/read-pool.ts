/** Reads a swap pool's base mint and mayhem flag over RPC (PoolDirectory's reader). */
import { PublicKey } from "@solana/web3.js";
import type { RpcClient } from "../../chain/rpc-client.js";
import { LAUNCH_SWAP_PROGRAM_ID } from "../../launch/programs.js";
import { decodePool } from "../../launch/state.js";
import type { ReadPool } from "./pool-directory.js";

/** A ReadPool over `rpc`: null when the account is missing, not the swap program's, or not a pool. */
export function rpcPoolReader(rpc: Pick<RpcClient, "getAccountInfo">): ReadPool {
  return async (pool) => {
    const { value } = await rpc.getAccountInfo(new PublicKey(pool));
    if (value === null || !value.owner.equals(LAUNCH_SWAP_PROGRAM_ID)) return null;
    try {
      const p = decodePool(value.data);
      return { mint: p.baseMint.toBase58(), isMayhem: p.isMayhemMode };
    } catch {
      return null;
    }
  };
}
