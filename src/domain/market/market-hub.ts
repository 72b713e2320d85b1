/**
 * The fan-out of market messages to stream subscribers: each message is serialized once and handed to
 * every sink subscribed to its topic (all new tokens, all migrations, trades of given mints, trades by
 * given wallets). A sink never blocks the hub: it queues or drops on its own (stream-session.ts).
 */
import type { MarketMessage, TradeMessage } from "./messages.js";

/** Where a subscriber's messages go (one WebSocket connection). */
export interface MarketSink {
  deliver(text: string): void;
}

/** Topics a subscriber can hold. */
export type KeyedTopic = "token" | "account";

/** The subscriptions of one sink, changed through the hub. */
export class MarketHub {
  private readonly newToken = new Set<MarketSink>();
  private readonly migration = new Set<MarketSink>();
  private readonly byMint = new Map<string, Set<MarketSink>>();
  private readonly byAccount = new Map<string, Set<MarketSink>>();
  /** In-process followers of a trader's trades (copy orders), told of the decoded message itself. */
  private readonly traders = new Map<string, Set<(m: TradeMessage) => void>>();

  /** Tells `listener` of every trade by `wallet` (both venues); returns the removal. */
  followTrader(wallet: string, listener: (m: TradeMessage) => void): () => void {
    let set = this.traders.get(wallet);
    if (set === undefined) this.traders.set(wallet, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.traders.get(wallet) === set) this.traders.delete(wallet);
    };
  }

  /** Subscribes or unsubscribes `sink` to every new token. */
  setNewToken(sink: MarketSink, on: boolean): void {
    if (on) this.newToken.add(sink);
    else this.newToken.delete(sink);
  }

  /** Subscribes or unsubscribes `sink` to every migration. */
  setMigration(sink: MarketSink, on: boolean): void {
    if (on) this.migration.add(sink);
    else this.migration.delete(sink);
  }

  /** Adds `sink` to the trades of `key` (a mint for "token", a wallet for "account"). */
  addKey(topic: KeyedTopic, key: string, sink: MarketSink): void {
    const index = topic === "token" ? this.byMint : this.byAccount;
    let set = index.get(key);
    if (set === undefined) index.set(key, (set = new Set()));
    set.add(sink);
  }

  /** Removes `sink` from the trades of `key`. */
  removeKey(topic: KeyedTopic, key: string, sink: MarketSink): void {
    const index = topic === "token" ? this.byMint : this.byAccount;
    const set = index.get(key);
    if (set === undefined) return;
    set.delete(sink);
    if (set.size === 0) index.delete(key);
  }

  /** Drops every subscription of `sink` (its connection closed). */
  removeSink(sink: MarketSink, keys: { token: Iterable<string>; account: Iterable<string> }): void {
    this.newToken.delete(sink);
    this.migration.delete(sink);
    for (const k of keys.token) this.removeKey("token", k, sink);
    for (const k of keys.account) this.removeKey("account", k, sink);
  }

  /** Delivers `message` to its subscribers; returns how many sinks it reached. */
  publish(message: MarketMessage): number {
    const targets = new Set<MarketSink>();
    if (message.type === "new_token") for (const s of this.newToken) targets.add(s);
    else if (message.type === "migration") for (const s of this.migration) targets.add(s);
    else if (message.type === "complete") {
      // A completion concerns the mint's and the buyer's subscribers, and those who follow migrations.
      for (const s of this.migration) targets.add(s);
      for (const s of this.byMint.get(message.mint) ?? []) targets.add(s);
      for (const s of this.byAccount.get(message.trader) ?? []) targets.add(s);
    } else {
      for (const l of this.traders.get(message.trader) ?? []) {
        try {
          l(message);
        } catch {
          // A follower's failure is its own (it reports it): the stream's subscribers still get the trade.
        }
      }
      for (const s of this.byMint.get(message.mint) ?? []) targets.add(s);
      for (const s of this.byAccount.get(message.trader) ?? []) targets.add(s);
    }
    if (targets.size === 0) return 0;
    const text = JSON.stringify(message);
    for (const s of targets) s.deliver(text);
    return targets.size;
  }

  /** Distinct keys subscribed, for metrics. */
  keyCounts(): { mints: number; accounts: number } {
    return { mints: this.byMint.size, accounts: this.byAccount.size };
  }
}
