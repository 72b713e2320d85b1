/**
 * Wires the market feed to the chain: `logsSubscribe` (mentions each launch program) on the service's one
 * subscription layer, swap pools resolved over RPC, the curve supply from the cached launch Global.
 * Each process holds its own subscriptions. Transactions that land while the subscription is down are
 * not re-read (see docs/decisions.md, issue 21): `onGap` reports each such gap.
 */
import type { ChainSubscriptions, SubscriptionCommitment } from "../../chain/subscriptions/index.js";
import type { RpcClient } from "../../chain/rpc-client.js";
import type { ChainCaches } from "../../chain/caches.js";
import { LAUNCH_GLOBAL, LAUNCH_PROGRAM_ID, LAUNCH_SWAP_PROGRAM_ID } from "../../launch/programs.js";
import { decodeLaunchGlobal } from "../../launch/state.js";
import type { MarketHub } from "./market-hub.js";
import { MarketFeed, type FeedObserver, type ProgramLogsSource } from "./market-feed.js";
import { PoolDirectory } from "./pool-directory.js";
import { rpcPoolReader } from "./read-pool.js";

/** The launch Global's `token_total_supply` on mainnet (every curve coin's supply). */
export const DEFAULT_CURVE_SUPPLY = 1_000_000_000_000_000n;

export interface StartFeedDeps {
  subscriptions: Pick<ChainSubscriptions, "logsSubscribe">;
  rpc: Pick<RpcClient, "getAccountInfo">;
  hub: MarketHub;
  /** The curve coins' supply (market cap of curve trades); default DEFAULT_CURVE_SUPPLY. */
  curveSupply?: () => bigint;
  commitment?: SubscriptionCommitment;
  observer?: FeedObserver;
  /** Told when a logs subscription comes back after a loss (events in between were missed). */
  onGap?: (programId: string) => void;
}

/** The curve supply from the cached launch Global, falling back to the mainnet value. */
export function curveSupplyFrom(caches: Pick<ChainCaches, "account">): () => bigint {
  return () => {
    try {
      const global = caches.account(LAUNCH_GLOBAL);
      return global === null ? DEFAULT_CURVE_SUPPLY : decodeLaunchGlobal(global.data).tokenTotalSupply;
    } catch {
      return DEFAULT_CURVE_SUPPLY;
    }
  };
}

/** A ProgramLogsSource over the chain subscription layer. */
export function logsSource(
  subscriptions: Pick<ChainSubscriptions, "logsSubscribe">,
  commitment: SubscriptionCommitment,
  onGap?: (programId: string) => void,
): ProgramLogsSource {
  return {
    subscribeLogs(programId, onLogs) {
      let wasLive = false;
      let lost = false;
      return subscriptions.logsSubscribe({ mentions: [programId] }, onLogs, {
        commitment,
        onLive: (live) => {
          if (!live && wasLive) lost = true;
          if (live && lost) {
            lost = false;
            onGap?.(programId);
          }
          wasLive = live;
        },
      });
    },
  };
}

/**
 * Starts the feed on both launch programs; returns it, its stop function and `ready` (both
 * subscriptions confirmed by the node).
 */
export function startMarketFeed(deps: StartFeedDeps): {
  feed: MarketFeed;
  stop: () => void;
  ready: Promise<void>;
} {
  const feed = new MarketFeed({
    hub: deps.hub,
    pools: new PoolDirectory(rpcPoolReader(deps.rpc)),
    curveSupply: deps.curveSupply ?? (() => DEFAULT_CURVE_SUPPLY),
    observer: deps.observer,
  });
  const ready = feed.start(logsSource(deps.subscriptions, deps.commitment ?? "confirmed", deps.onGap), [
    LAUNCH_PROGRAM_ID.toBase58(),
    LAUNCH_SWAP_PROGRAM_ID.toBase58(),
  ]);
  // A subscription the node refuses is reported by the layer's onError; nothing awaits `ready` in production.
  ready.catch(() => undefined);
  return { feed, stop: () => feed.stop(), ready };
}
