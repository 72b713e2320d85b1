/**
 * Wires the market feed to the chain: `logsSubscribe` (mentions each launch program) on the service's one
 * subscription layer, swap pools resolved over RPC, the curve supply from the cached launch Global.
 * Each process holds its own subscriptions. Transactions that land while a subscription is down are re-read
 * by signature once it is back (gap-fill.ts); `onGap` reports each gap and what the re-read found.
 */
import type { ChainSubscriptions, SubscriptionCommitment } from "../../chain/subscriptions/index.js";
import type { RpcClient } from "../../chain/rpc-client.js";
import type { ChainCaches } from "../../chain/caches.js";
import { LAUNCH_GLOBAL, LAUNCH_PROGRAM_ID, LAUNCH_SWAP_PROGRAM_ID } from "../../launch/programs.js";
import { decodeLaunchGlobal } from "../../launch/state.js";
import type { MarketHub } from "./market-hub.js";
import { readGap, type GapResult, type GapStart } from "./gap-fill.js";
import { MarketFeed, type FeedObserver, type ProgramLogsSource } from "./market-feed.js";
import { PoolDirectory } from "./pool-directory.js";
import { rpcPoolReader } from "./read-pool.js";

/** The launch Global's `token_total_supply` on mainnet (every curve coin's supply). */
export const DEFAULT_CURVE_SUPPLY = 1_000_000_000_000_000n;

export interface StartFeedDeps {
  subscriptions: Pick<ChainSubscriptions, "logsSubscribe" | "lastSlot">;
  rpc: Pick<RpcClient, "getAccountInfo" | "getSignaturesForAddress" | "getTransactionLogs">;
  hub: MarketHub;
  /** The curve coins' supply (market cap of curve trades); default DEFAULT_CURVE_SUPPLY. */
  curveSupply?: () => bigint;
  commitment?: SubscriptionCommitment;
  observer?: FeedObserver;
  /**
   * Told when a logs subscription came back after a loss, once the gap was re-read (`result`), or with the
   * error that stopped the re-read (events in the gap then missed).
   */
  onGap?: (programId: string, result: GapResult | { error: unknown }) => void;
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

/**
 * A ProgramLogsSource over the chain subscription layer. It remembers each subscription's newest delivered
 * transaction (else the slot it went live at) and, when it comes back after a loss, calls `onReconnected`
 * with where it stood when it was lost.
 */
export function logsSource(
  subscriptions: Pick<ChainSubscriptions, "logsSubscribe" | "lastSlot">,
  commitment: SubscriptionCommitment,
  onReconnected?: (programId: string, start: GapStart) => void,
): ProgramLogsSource {
  return {
    subscribeLogs(programId, onLogs) {
      let wasLive = false;
      let lostAt: GapStart | null = null;
      const seen: GapStart = { signature: null, slot: null };
      return subscriptions.logsSubscribe(
        { mentions: [programId] },
        (n) => {
          seen.signature = n.signature;
          seen.slot = n.slot;
          onLogs(n);
        },
        {
          commitment,
          onLive: (live) => {
            if (live && seen.slot === null) seen.slot = subscriptions.lastSlot();
            if (!live && wasLive) lostAt ??= { ...seen };
            if (live && lostAt !== null) {
              const start = lostAt;
              lostAt = null;
              onReconnected?.(programId, start);
            }
            wasLive = live;
          },
        },
      );
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
  const refill = (programId: string, start: GapStart) => {
    readGap(deps.rpc, programId, start, feed).then(
      (result) => deps.onGap?.(programId, result),
      (error: unknown) => deps.onGap?.(programId, { error }),
    );
  };
  const ready = feed.start(logsSource(deps.subscriptions, deps.commitment ?? "confirmed", refill), [
    LAUNCH_PROGRAM_ID.toBase58(),
    LAUNCH_SWAP_PROGRAM_ID.toBase58(),
  ]);
  // A subscription the node refuses is reported by the layer's onError; nothing awaits `ready` in production.
  ready.catch(() => undefined);
  return { feed, stop: () => feed.stop(), ready };
}
