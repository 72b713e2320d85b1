/**
 * The chain subscription layer: `accountSubscribe`, `logsSubscribe` and `slotSubscribe` over one PubSub
 * WebSocket (see connection.ts), slot-stamped updates, reconnect + resubscribe with bounded backoff, stats.
 *
 * Usage:
 *   const subs = createChainSubscriptions({ url: deriveWsUrl(rpcUrl) });
 *   const stop = subs.accountSubscribe(pubkey, (u) => use(u.slot, u.account), { onLive });
 *   await stop.ready; ... stop();
 */
import type { BackoffOptions } from "./backoff.js";
import { PubSubConnection } from "./connection.js";
import { decodeAccountValue, decodeLogsValue, ownerKeys } from "./decode.js";
import type {
  AccountUpdate,
  ChainSubscriptions,
  LogsFilter,
  LogsUpdate,
  SubscribeOptions,
  Subscription,
  SubscriptionStats,
} from "./types.js";

export type * from "./types.js";
export { deriveWsUrl } from "./ws-url.js";
export { backoffDelay, DEFAULT_BACKOFF } from "./backoff.js";

/** Options of createChainSubscriptions. */
export interface ChainSubscriptionsOptions {
  /** The PubSub endpoint (RPC_WS_URL; deriveWsUrl(RPC_URL) by default). */
  url: string;
  /** Headers of the upgrade request. */
  headers?: Record<string, string>;
  backoff?: BackoffOptions;
  pingMs?: number;
  /** Slot length used to turn the time since the last notification into slots. Default 400 ms. */
  slotMs?: number;
  random?: () => number;
  now?: () => number;
  onError?: (message: string) => void;
}

/** Creates the layer; the connection opens with the first subscription. */
export function createChainSubscriptions(options: ChainSubscriptionsOptions): ChainSubscriptions {
  const now = options.now ?? Date.now;
  const slotMs = options.slotMs ?? 400;
  const conn = new PubSubConnection({ ...options, now });
  const owner = ownerKeys();
  let slotFollower: Subscription | null = null;

  function wrap(handle: ReturnType<PubSubConnection["add"]>): Subscription {
    const stop = (() => handle.remove()) as Subscription;
    Object.defineProperty(stop, "ready", { value: handle.ready });
    Object.defineProperty(stop, "live", { value: () => handle.live() });
    return stop;
  }

  function slotSubscribe(handler: (slot: number) => void): Subscription {
    return wrap(
      conn.add("slotSubscribe", "slotUnsubscribe", [], (_result, slot) => {
        if (slot !== null) handler(slot);
      }),
    );
  }

  /** The layer follows slots itself so a quiet account's state stays measurably fresh. */
  function followSlots(): void {
    slotFollower ??= slotSubscribe(() => undefined);
  }

  return {
    accountSubscribe(pubkey, handler, opts: SubscribeOptions = {}) {
      followSlots();
      const params = [pubkey, { encoding: "base64", commitment: opts.commitment ?? "confirmed" }];
      return wrap(
        conn.add(
          "accountSubscribe",
          "accountUnsubscribe",
          params,
          (result, slot) => {
            const value = (result as { value?: unknown } | null)?.value;
            const u: AccountUpdate = {
              pubkey,
              slot: slot ?? 0,
              account: decodeAccountValue(value, owner),
              receivedAt: now(),
            };
            handler(u);
          },
          opts.onLive,
        ),
      );
    },
    logsSubscribe(filter: LogsFilter, handler: (u: LogsUpdate) => void, opts: SubscribeOptions = {}) {
      followSlots();
      const params = [filter, { commitment: opts.commitment ?? "confirmed" }];
      return wrap(
        conn.add(
          "logsSubscribe",
          "logsUnsubscribe",
          params,
          (result, slot) => {
            const value = decodeLogsValue((result as { value?: unknown } | null)?.value);
            handler({ slot: slot ?? 0, ...value, receivedAt: now() });
          },
          opts.onLive,
        ),
      );
    },
    slotSubscribe,
    slotsSinceLastMessage() {
      if (!conn.connected() || conn.lastMessageAt === null) return Infinity;
      return Math.floor(Math.max(0, now() - conn.lastMessageAt) / slotMs);
    },
    lastSlot: () => conn.lastSlot,
    stats(): SubscriptionStats {
      const c = conn.counts();
      return {
        connected: conn.connected(),
        subscriptions: c.subscriptions,
        live: c.live,
        updates: conn.updates,
        reconnects: conn.reconnects,
        lastSlot: conn.lastSlot,
        lastMessageAgeMs: conn.lastMessageAt === null ? null : now() - conn.lastMessageAt,
      };
    },
    close: () => conn.close(),
  };
}
