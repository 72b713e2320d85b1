/** Records and repository methods of issue 19 (custody): keys, spend reservations, activity log. */
import type { ExecutionRecord, NewExecution } from "../types.js";

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
  /** Issue 29: the sub-key that created this key; null = the account's root key (or a key older than that). */
  createdBy: number | null;
  /**
   * The keys above this one up to (not including) the root key, creator first: read with the key by
   * `findKeyByHash` and `findKey` (empty when the root key created it); left out by listings.
   */
  ancestors?: KeyRecord[];
  /**
   * The row's version: counted up by the database when anything above but `name` changes
   * (key-version-migrations.ts).
   */
  version: number;
  /** The account's root row's version (its freeze flag is `accountFrozen`); a root key's own. */
  rootVersion: number;
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
  /** Issue 29: the creating sub-key's id; null (or left out) when the root key creates it. */
  createdBy?: number | null;
}

/** Thrown by `insertSubKey` when the account holds `max` unrevoked sub-keys already; nothing was written. */
export class KeyLimitError extends Error {
  constructor(readonly max: number) {
    super(`account holds the maximum of ${max} sub-keys`);
    this.name = "KeyLimitError";
  }
}

/** One key an execution's spend is charged to, under its own 24 h cap. */
export interface SpendCharge {
  keyId: number;
  capLamports: bigint;
}

/**
 * What `insertExecutionReserving` reserves: `lamports` against `capLamports` of `keyId` over `[sinceMs, nowMs]`,
 * and (issue 29) against the cap of every key of `alsoCharge` (the key's capped ancestors). `capLamports` null:
 * the key itself has no cap and is not charged. One reservation row per charged key.
 */
export interface SpendReservation {
  keyId: number;
  lamports: bigint;
  capLamports: bigint | null;
  nowMs: number;
  sinceMs: number;
  alsoCharge?: readonly SpendCharge[];
}

/** Thrown by `insertExecutionReserving` when the reservation would exceed the cap; nothing was written. */
export class SpendCapExceededError extends Error {
  constructor(
    readonly usedLamports: bigint,
    readonly capLamports: bigint,
    readonly neededLamports: bigint,
    /** The key whose cap refused (issue 29: the request's key or one of its ancestors). */
    readonly capKeyId?: number,
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
  /** How many requests the row stands for: 1, or on a sampled refusal row the refusals since the last one. */
  refusals?: number;
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
  /**
   * Issue 29: revokes the key and every unrevoked key it created, transitively, in one statement; the ids
   * revoked (empty when the account has no such unrevoked key).
   */
  revokeKeyTree(accountId: number, keyId: number, revokedAt: string): Promise<number[]>;
  /** Sets the revoked time, freeze flag or policy of one of the account's keys; false when it has no such key. */
  updateKey(
    accountId: number,
    keyId: number,
    patch: { revokedAt?: string; frozen?: boolean; policy?: Record<string, unknown> | null },
  ): Promise<boolean>;
  setAccountFrozen(accountId: number, frozen: boolean): Promise<void>;
  /** Issue 29: the account's wallets that count as its own for `destinations_allow` (public keys). */
  listVouchedWallets(accountId: number): Promise<string[]>;
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
