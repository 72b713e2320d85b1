/**
 * Turns the launch programs' transaction logs into market messages: one logs subscription per program
 * (a node's `logsSubscribe` takes one `mentions` address), duplicates of a transaction that mentions
 * both programs dropped by signature, failed transactions skipped (their events were rolled back),
 * events decoded with the SDKs (launch/events/) and published through the hub in arrival order.
 */
import { TurnYield } from "../../core/turn-yield.js";
import { decodeLaunchLogs } from "../../launch/events/event-decoder.js";
import type { LaunchEvent, PostCompleteBuyEvent } from "../../launch/events/launch-event.js";
import type { MarketHub } from "./market-hub.js";
import {
  completeMessage,
  curveTradeMessage,
  migrationMessage,
  newTokenMessage,
  poolTradeMessage,
  type MarketMessage,
  type PoolInfo,
  type TxContext,
} from "./messages.js";
import type { PoolDirectory } from "./pool-directory.js";

/** One `logsNotification` of a node (or a transaction's logs re-read by signature). */
export interface LogsNotification {
  signature: string;
  slot: number;
  /** The transaction error, null when it succeeded. */
  err: unknown;
  logs: readonly string[];
}

/** An unsubscribe function; `ready` resolves once the node confirmed the subscription. */
export interface LogsSubscription {
  (): void;
  readonly ready?: Promise<void>;
}

/** The chain subscription layer as the feed needs it: `logsSubscribe` with `mentions: [program]`. */
export interface ProgramLogsSource {
  /** Subscribes; returns the unsubscribe function. */
  subscribeLogs(programId: string, onLogs: (n: LogsNotification) => void): LogsSubscription;
}

/** Told of every successful transaction's decoded events (before they are published), e.g. the warm state. */
export type EventsListener = (events: readonly LaunchEvent[], tx: TxContext) => void;

/** What the feed reports for metrics and logs. */
export interface FeedObserver {
  decoded?(kind: MarketMessage["type"]): void;
  /** A pool trade whose pool could not be resolved to a mint (dropped). */
  unresolvedPool?(pool: string): void;
  error?(e: unknown): void;
}

export interface MarketFeedDeps {
  hub: MarketHub;
  pools: PoolDirectory;
  /** The launch Global's `token_total_supply` (market cap of curve trades). */
  curveSupply: () => bigint;
  observer?: FeedObserver;
  /** Signatures remembered to drop duplicates. Default 4096. */
  recentSignatures?: number;
}

/** Maps one transaction's decoded events to messages (pool trades resolved through `pools`). */
export async function messagesOf(
  events: readonly LaunchEvent[],
  tx: TxContext,
  deps: Pick<MarketFeedDeps, "pools" | "curveSupply" | "observer">,
): Promise<MarketMessage[]> {
  const completed = new Set(events.filter((e) => e.kind === "complete").map((e) => e.mint));
  const out: MarketMessage[] = [];
  for (const [i, e] of events.entries()) {
    if (e.kind === "create") out.push(newTokenMessage(e, tx));
    else if (e.kind === "curve_trade") {
      // A v3 buy that completed the curve: TradeEvent (curve part), CompleteEvent, PostCompleteBuyEvent
      // (pool part). The trade message reports the buyer's total.
      const post = e.isBuy ? postCompleteOf(events, i, e.mint, e.user) : null;
      out.push(curveTradeMessage(e, tx, deps.curveSupply(), completed.has(e.mint), post));
    } else if (e.kind === "complete") out.push(completeMessage(e, tx));
    else if (e.kind === "migration") out.push(migrationMessage(e, tx));
    else if (e.kind === "pool_trade") {
      const info: PoolInfo | null = await deps.pools.lookup(e.pool);
      if (info === null) deps.observer?.unresolvedPool?.(e.pool);
      else out.push(poolTradeMessage(e, tx, info));
    }
  }
  return out;
}

/** The PostCompleteBuyEvent that follows the curve trade at `at` (before the next curve trade), if any. */
function postCompleteOf(
  events: readonly LaunchEvent[],
  at: number,
  mint: string,
  user: string,
): PostCompleteBuyEvent | null {
  for (const e of events.slice(at + 1)) {
    if (e.kind === "curve_trade") return null;
    if (e.kind === "post_complete_buy" && e.mint === mint && e.user === user) return e;
  }
  return null;
}

/** The feed; `ingest` is also how tests and the gap re-read hand it a transaction's logs. */
export class MarketFeed {
  private readonly seen = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private unsubscribers: (() => void)[] = [];
  private readonly listeners = new Set<EventsListener>();
  private readonly turns = new TurnYield();

  constructor(private readonly deps: MarketFeedDeps) {}

  /**
   * Issue 31: while `busy` answers true when a transaction's logs arrive or its messages are due (the order engine
   * has a changed mint to evaluate), they wait one turn of the event loop. The engine's evaluation and the fires
   * it starts run to their send without waiting on I/O, so they go out first instead of sharing the microtask
   * queue with the stream's fan-out; with nothing to evaluate, nothing waits. Returns the removal.
   */
  yieldTo(busy: () => boolean): () => void {
    return this.turns.add(busy);
  }

  /** Subscribes to the programs' logs on `source`; resolves once every subscription is confirmed. */
  start(source: ProgramLogsSource, programIds: readonly string[]): Promise<void> {
    const subs = programIds.map((id) => source.subscribeLogs(id, (n) => void this.ingest(n)));
    this.unsubscribers.push(...subs);
    return Promise.all(subs.map((s) => s.ready)).then(() => undefined);
  }

  /** Whether this signature was already taken (published, skipped or queued). */
  has(signature: string): boolean {
    return this.seen.has(signature);
  }

  /** Adds a listener of decoded events; returns its removal. */
  onEvents(listener: EventsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    for (const u of this.unsubscribers) u();
    this.unsubscribers = [];
  }

  /** Queues one transaction's logs; resolves when its messages are published (in arrival order). */
  ingest(n: LogsNotification): Promise<void> {
    if (n.err !== null && n.err !== undefined) return this.chain;
    if (this.seen.has(n.signature)) return this.chain;
    this.remember(n.signature);
    // Logs that arrive while the order engine has a change of this turn to evaluate (the same socket chunk often
    // carries a transaction's account notification and then its logs) are decoded a turn later: decoding and the
    // listeners ran before the engine's evaluation and its fire otherwise. Nothing else is in the turn: the
    // deferred call runs before the next I/O, so the feed keeps the arrival order.
    const turn = this.turns.pass();
    if (turn !== undefined) return turn.then(() => this.take(n));
    return this.take(n);
  }

  /** Decodes one transaction's logs, tells the listeners, queues its messages. */
  private take(n: LogsNotification): Promise<void> {
    const events = decodeLaunchLogs(n.logs);
    if (events.length === 0) return this.chain;
    const tx = { signature: n.signature, slot: n.slot };
    for (const listener of this.listeners) {
      try {
        listener(events, tx);
      } catch (e) {
        this.deps.observer?.error?.(e);
      }
    }
    this.chain = this.chain.then(async () => {
      const turn = this.turns.pass();
      if (turn !== undefined) await turn;
      try {
        for (const m of await messagesOf(events, tx, this.deps)) {
          this.deps.observer?.decoded?.(m.type);
          this.deps.hub.publish(m);
        }
      } catch (e) {
        this.deps.observer?.error?.(e);
      }
    });
    return this.chain;
  }

  private remember(signature: string): void {
    this.seen.add(signature);
    if (this.seen.size > (this.deps.recentSignatures ?? 4096)) {
      // Sets iterate in insertion order: the first entry is the oldest.
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
