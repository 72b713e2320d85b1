/** Public types of the chain subscription layer (one WebSocket to the RPC's PubSub endpoint for the service). */
import type { AccountInfo } from "../rpc-client.js";

/** Commitment of a subscription's notifications. */
export type SubscriptionCommitment = "processed" | "confirmed" | "finalized";

/** One account change, stamped with the slot the node reported it at. */
export interface AccountUpdate {
  pubkey: string;
  slot: number;
  /** The account after the change; a closed account arrives as 0 lamports owned by the system program. */
  account: AccountInfo;
  /** Local time (ms) the notification was received. */
  receivedAt: number;
}

/** One transaction's logs (logsSubscribe), stamped with its slot. */
export interface LogsUpdate {
  slot: number;
  signature: string;
  /** The transaction error as the node reports it; null when it succeeded. */
  err: unknown;
  logs: string[];
  receivedAt: number;
}

/** Filter of logsSubscribe: every transaction mentioning one address (program or account), or all. */
export type LogsFilter = { mentions: [string] } | "all";

/** Options of one subscription. */
export interface SubscribeOptions {
  /** Default "confirmed" (the commitment of the service's reads). */
  commitment?: SubscriptionCommitment;
  /**
   * Told each time the node confirms the subscription (true: after the first subscribe and after every
   * resubscribe on a new connection) and each time the connection carrying it is lost (false). Changes made
   * while it was down are not replayed: a caller that keeps state re-reads it on `true`.
   */
  onLive?: (live: boolean) => void;
}

/** What a subscribe call returns: call it to unsubscribe (idempotent). */
export interface Subscription {
  (): void;
  /** Resolves once the node has confirmed the subscription; rejects when it refused it (bad params). */
  readonly ready: Promise<void>;
  /** True while the subscription is confirmed on the open connection. */
  live(): boolean;
}

/** Counters and gauges of the subscription layer (exported as Prometheus metrics). */
export interface SubscriptionStats {
  connected: boolean;
  /** Distinct node-side subscriptions wanted (the internal slot subscription included). */
  subscriptions: number;
  /** Of those, confirmed on the open connection. */
  live: number;
  /** Notifications received since start (all kinds). */
  updates: number;
  /** Connections re-opened after a loss since start. */
  reconnects: number;
  /** Highest slot any notification carried; null before the first. */
  lastSlot: number | null;
  /** ms since the connection last delivered anything; null when it never did. */
  lastMessageAgeMs: number | null;
}

/** The subscription layer: one connection, shared node-side subscriptions, reconnect and resubscribe. */
export interface ChainSubscriptions {
  /** Subscribes to one account's changes (base64 data). Handlers of the same account share one node subscription. */
  accountSubscribe(
    pubkey: string,
    handler: (u: AccountUpdate) => void,
    options?: SubscribeOptions,
  ): Subscription;
  /** Subscribes to the logs of transactions matching `filter`. */
  logsSubscribe(
    filter: LogsFilter,
    handler: (u: LogsUpdate) => void,
    options?: SubscribeOptions,
  ): Subscription;
  /** Subscribes to slot changes (the layer also follows slots itself, for freshness). */
  slotSubscribe(handler: (slot: number) => void): Subscription;
  /**
   * How many slots ago the connection last delivered a notification, estimated as whole slot lengths elapsed
   * since (0 right after one); Infinity while disconnected or before the first.
   */
  slotsSinceLastMessage(): number;
  /** Highest slot seen in any notification; null before the first. */
  lastSlot(): number | null;
  stats(): SubscriptionStats;
  /** Closes the connection for good; every subscription stops. */
  close(): Promise<void>;
}
