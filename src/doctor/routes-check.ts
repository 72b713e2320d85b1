/**
 * ROUTES: each route answers (JSON-RPC routes are probed with getHealth; REST submit routes cannot be probed
 * without sending and say so), its tip accounts exist on this cluster, and its tip is at least its minimum.
 */
import type { FetchLike } from "../chain/json-rpc.js";
import type { RpcClient } from "../chain/rpc-client.js";
import { fail, ok, warn, type CheckResult } from "./check.js";
import { probeRelay } from "./relays-check.js";
import { checkTipAccounts } from "./tip-accounts-check.js";
import type { Config } from "../config/config.js";
import { relayEndpointUrl } from "../config/relays.js";

/** A configured route as the doctor sees it (URL and headers may carry a key: never printed). */
export interface RouteProbeTarget {
  name: string;
  url: string;
  headers?: Record<string, string>;
  tipAccounts: readonly string[];
  minTipLamports: bigint;
  tipLamports: bigint;
  wire: "jsonrpc" | "submit-v2";
}

/** The checks of one route: reachable, tip accounts, minimum tip. */
export async function checkRoute(
  rpc: Pick<RpcClient, "getMultipleAccounts">,
  route: RouteProbeTarget,
  timeoutMs: number,
  fetch?: FetchLike,
): Promise<CheckResult[]> {
  const name = `route ${route.name}`;
  const reach =
    route.wire === "jsonrpc"
      ? { ...(await probeRelay(route, timeoutMs, fetch)), name }
      : warn(name, "REST submit route: not probed (it has no call that sends nothing)");
  const tips =
    route.tipAccounts.length === 0
      ? ok(`${name} tips`, "takes no tip")
      : {
          ...(await checkTipAccounts(rpc, {
            name: `${name} tips`,
            setting: "tip accounts",
            accounts: route.tipAccounts,
            tipLamports: route.tipLamports,
          })),
        };
  const minimum =
    route.tipLamports < route.minTipLamports
      ? fail(
          `${name} tip`,
          `tip ${route.tipLamports} is under the route's minimum ${route.minTipLamports} lamports`,
        )
      : ok(`${name} tip`, `tip ${route.tipLamports} lamports (minimum ${route.minTipLamports})`);
  return [reach, tips, minimum];
}

/** ROUTES as the doctor checks them: URLs resolved, auth headers attached (never printed). */
export function routeProbeTargets(config: Config): RouteProbeTarget[] {
  const rpcUrl = config.rpcUrl;
  if (rpcUrl === undefined) return [];
  return config.routes.map((r) => ({
    name: r.name,
    url: relayEndpointUrl(r, rpcUrl),
    headers: r.auth().headers,
    tipAccounts: r.tipAccounts,
    minTipLamports: r.minTipLamports,
    tipLamports: r.tipLamports,
    wire: r.wire,
  }));
}
