/** RPC reachable, and its genesis hash is the one of CLUSTER. */
import type { Cluster } from "../config/config.js";
import type { JsonRpcTransport } from "../chain/json-rpc.js";
import { errorText, fail, ok, type CheckResult } from "./check.js";

/** Genesis hashes of the public clusters (getGenesisHash; constant for a cluster's lifetime). */
export const GENESIS_HASHES: Readonly<Record<"mainnet" | "devnet" | "testnet", string>> = Object.freeze({
  mainnet: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
  devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
  testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY",
});

/** The public cluster a genesis hash belongs to, if any. */
function publicClusterOf(hash: string): string | undefined {
  return Object.entries(GENESIS_HASHES).find(([, h]) => h === hash)?.[0];
}

/** Pure verdict on a genesis hash for CLUSTER. */
export function judgeGenesis(cluster: Cluster, hash: string): CheckResult {
  const name = "rpc-cluster";
  const known = publicClusterOf(hash);
  if (cluster === "mainnet" || cluster === "devnet") {
    if (hash === GENESIS_HASHES[cluster]) return ok(name, `RPC_URL answers; genesis ${hash} is ${cluster}`);
    return fail(
      name,
      `RPC_URL serves genesis ${hash} (${known ?? "not a public cluster"}), not ${cluster}'s ${GENESIS_HASHES[cluster]}: check RPC_URL and CLUSTER`,
    );
  }
  if (cluster === "localnet" && known !== undefined) {
    return fail(
      name,
      `RPC_URL serves ${known} (genesis ${hash}) but CLUSTER=localnet: check RPC_URL and CLUSTER`,
    );
  }
  return ok(name, `RPC_URL answers; genesis ${hash} (CLUSTER=${cluster}: not pinned)`);
}

/** Calls getGenesisHash and judges it. */
export async function checkCluster(
  rpc: Pick<JsonRpcTransport, "call">,
  cluster: Cluster,
): Promise<CheckResult> {
  let hash: unknown;
  try {
    hash = await rpc.call("getGenesisHash", []);
  } catch (e) {
    return fail("rpc-cluster", `RPC_URL does not answer getGenesisHash: ${errorText(e)}`);
  }
  if (typeof hash !== "string")
    return fail("rpc-cluster", "RPC_URL answered getGenesisHash with a non-string");
  return judgeGenesis(cluster, hash);
}
