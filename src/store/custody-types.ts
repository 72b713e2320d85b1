/** Records and repository methods of issue 19 (custody): keys, spend reservations, activity log. */
import type { ExecutionRecord, NewExecution } from "./types.js";

/** One key as stored: the account's root key (from setup) or a sub-key made with it. */
export interface KeyRecord {
  id: number;
  /** The account (= its root key's id) whose wallets and executions this key works on. */
  accountId: number;
  root: boolean;
  name: string;
  /** Null for a root key: every scope. */
  scopes: string[] | null;
  /** Null: every wallet of the account. */
  wallets: string[] | null;
  expiresAt: string | null;
  revokedAt: string | null;
  frozen: boolean;
  /** The root row's flag: every key of the account is frozen. */
  accountFrozen: boolean;
  /** The stored policy object (validated by domain/keys/policy.ts before it was stored); null = none. */
  policy: Record<string, unknown> | null;
  createdAt: string;
}

/** A new sub-key; its hash is computed by the vault like the root key's. */
export interface NewSubKey {
  accountId: number;
  keyHash: string;
  name: string;
  scopes: string[];
  wallets: string[] | null;
  expiresAt: string | null;
  /** The starting policy (issue 29: a new key inherits or narrows its creator's); null = none. */
  policy: Record<string, unknown> | null;
  createdAt: string;
}

/** Thrown by `insertSubKey` when the account holds `max` unrevoked sub-keys already; nothing was written. */
export class KeyLimitError extends Error {
  constructor(readonly max: number) {
    super(`account holds the maximum of ${max} sub-keys`);
    this.name = "KeyLimitError";
  }
}

/** What `insertExecutionReserving` reserves: `lamports` against `capLamports` over `[sinceMs, nowMs]`. */
export interface SpendReservation {
  keyId: number;
  lamports: bigint;
  capLamports: bigint;
  nowMs: number;
  sinceMs: number;
}

/** Thrown by `insertExecutionReserving` when the reservation would exceed the cap; nothing was written. */
export class SpendCapExceededError extends Error {
  constructor(
    readonly usedLamports: bigint,
    readonly capLamports: bigint,
    readonly neededLamports: bigint,
  ) {
    super("spend cap exceeded");
    this.name = "SpendCapExceededError";
  }
}

/** One activity row as written (id and nothing else added by the store). */
export interface NewActivity {
  accountId: number;
  at: string;
  keyId: number;
  keyName: string;
  method: string;
  route: string;
  wallets: string[];
  executionId: string | null;
  status: number;
  rule: string | null;
  ip: string | null;
  /** Issue 30: the key a `/v1/keys/:id…` request acted on (freeze, revoke, policy); null otherwise. */
  targetKeyId?: number | null;
}

export interface ActivityRecord extends NewActivity {
  id: number;
}

/** Filters of `listActivity`; newest first, ids below `beforeId` when set. */
export interface ActivityQuery {
  accountId: number;
  beforeId?: number;
  limit: number;
  keyId?: number;
  route?: string;
  status?: number;
  rule?: string;
  /** Only rows that acted on this key (issue 30). */
  targetKeyId?: number;
}

/** The custody methods of the store (implemented in kysely-custody.ts). */
export interface CustodyStore {
  /** The key with this hash joined with its account's freeze flag (revoked keys included). */
  findKeyByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** One key of the account (root or sub-key), revoked ones included. */
  findKey(accountId: number, keyId: number): Promise<KeyRecord | undefined>;
  /** The account's keys that are not revoked, root first. */
  listKeys(accountId: number): Promise<KeyRecord[]>;
  /**
   * Inserts the sub-key; with `maxKeys`, counts the account's unrevoked sub-keys in the same transaction,
   * serialized per account across processes, and throws KeyLimitError (writing nothing) at `maxKeys`.
   */
  insertSubKey(key: NewSubKey, maxKeys?: number): Promise<KeyRecord>;
  /** Sets the revoked time, freeze flag or policy of one of the account's keys; false when it has no such key. */
  updateKey(
    accountId: number,
    keyId: number,
    patch: { revokedAt?: string; frozen?: boolean; policy?: Record<string, unknown> | null },
  ): Promise<boolean>;
  setAccountFrozen(accountId: number, frozen: boolean): Promise<void>;
  /** Lamports the key's reservations since `sinceMs` still count (see kysely-custody.ts for what is released). */
  spentLamports(keyId: number, sinceMs: number): Promise<bigint>;
  /**
   * Inserts the execution and its spend reservation in one transaction, serialized per key across processes;
   * throws SpendCapExceededError (writing nothing) when the key's counted spend plus this one passes the cap.
   */
  insertExecutionReserving(execution: NewExecution, reservation: SpendReservation): Promise<ExecutionRecord>;
  insertActivity(row: NewActivity): Promise<void>;
  listActivity(query: ActivityQuery): Promise<ActivityRecord[]>;
}
