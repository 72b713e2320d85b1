/** Records and store methods of the execution events outbox (issue 20). */
import type { ExecutionKind, ExecutionRecord, ExecutionStatus } from "../types.js";

/** One stored event: a status an execution record took, numbered per account. */
export interface EventRecord {
  /** Per-account, strictly increasing, dense (1, 2, 3, ...); the stream cursor. */
  id: number;
  apiKeyId: number;
  type: string;
  executionId: string;
  /** Issue 31: `order` for an order's lifecycle event (executionId is then the order id). */
  kind: ExecutionKind | "order";
  wallet: string;
  wallets: string[];
  signatures: string[];
  status: ExecutionStatus;
  error: unknown;
  createdAt: string;
  /** Issue 33: the event's own payload (a position.updated event's `{ position }`); null on execution events. */
  data?: unknown;
}

/** Inputs of `listEvents`: ascending ids above `after`, optionally filtered. */
export interface ListEventsQuery {
  apiKeyId: number;
  after: number;
  limit: number;
  types?: readonly string[];
  kind?: ExecutionKind;
  /** Events whose wallets include this public key. */
  wallet?: string;
  executionId?: string;
  /** Issue 19: a wallet-bound key sees only events of executions signed by its wallets alone. */
  onlyWallets?: readonly string[];
}

/** What the account's outbox holds: the oldest retained id (null when none) and the last id ever written. */
export interface EventBounds {
  oldest: number | null;
  last: number;
}

/**
 * Called when events may have been written: with the account id when known, undefined when any account may
 * have news. A wake-up only: listeners read the outbox to learn what changed.
 */
export type EventWakeListener = (apiKeyId: number | undefined) => void;

/** The events methods of the store. */
export interface EventStore {
  listEvents(query: ListEventsQuery): Promise<EventRecord[]>;
  eventBounds(apiKeyId: number): Promise<EventBounds>;
  /** Deletes events created before this ISO time (no zone); returns how many. */
  purgeEvents(createdBefore: string): Promise<number>;
  /** One execution of the key, or undefined (also when `onlyWallets` is given and it used another wallet). */
  findExecution(
    apiKeyId: number,
    id: string,
    onlyWallets?: readonly string[],
  ): Promise<ExecutionRecord | undefined>;
  /** Subscribes to wake-ups (this process's writes, and other processes' through the database); returns unsubscribe. */
  onEventWake(listener: EventWakeListener): () => void;
  /**
   * Issue 29: tells this process and the others that the account's keys changed (revoke, freeze, policy, account
   * freeze), so each re-checks the streams it holds for that account. A hint: delivered at most once.
   */
  publishKeysChanged(accountId: number): Promise<void>;
  /**
   * Subscribes to key-change hints of this process and the others: the account id, or undefined when any
   * account may have changed (a reconnect after a lost connection). Returns unsubscribe.
   */
  onKeysChanged(listener: EventWakeListener): () => void;
}
