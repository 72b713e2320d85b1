/** The configured ROUTES as the trade service races them: one client per route (JSON-RPC or REST submit). */
import { PublicKey } from "@solana/web3.js";
import type { RaceRoute } from "../chain/landing/race.js";
import { RouteStats } from "../chain/landing/route-stats.js";
import { createSubmitV2Client } from "../chain/landing/submit-v2-client.js";
import { createRelayClient } from "../chain/relay-client.js";
import type { Config } from "../config/config.js";
import { relayEndpointUrl } from "../config/relays.js";
import type { TradeRacing } from "../domain/trade/raced-trade.js";

/** The racing collaborators of the app from the configuration; undefined when ROUTES is unset. */
export function racingFromConfig(config: Config, stats = new RouteStats()): TradeRacing | undefined {
  const rpcUrl = config.rpcUrl;
  if (config.routes.length === 0 || rpcUrl === undefined) return undefined;
  const timeoutMs = config.rpcTimeoutMs;
  const routes: RaceRoute[] = config.routes.map((r) => {
    const url = relayEndpointUrl(r, rpcUrl);
    const headers = r.auth().headers;
    return {
      name: r.name,
      client:
        r.wire === "submit-v2"
          ? createSubmitV2Client({ url, timeoutMs, headers })
          : createRelayClient({ url, timeoutMs, headers }),
      tipAccounts: r.tipAccounts.map((a) => new PublicKey(a)),
      minTipLamports: r.minTipLamports,
      mevProtect: r.mevProtect,
    };
  });
  return { routes, stats, confirmTimeoutMs: config.confirmTimeoutMs, confirmPollMs: 400 };
}
