/** Records and the one repository interface shared by the SQLite and PostgreSQL implementations. */
import type { EventStore } from "./events/event-types.js";
import type { WebhookStore } from "./webhooks/webhook-types.js";
import type { CustodyStore } from "./keys/custody-types.js";
import type { PositionStore } from "./positions/position-types.js";
import type { CopyFireStore, OrderFireStore, OrderStore } from "./orders/order-types.js";
import type { OutsideBuildStore } from "./outside/outside-build-types.js";

export * from "./keys/custody-types.js";
export * from "./positions/position-types.js";
export * from "./orders/order-types.js";

export interface ApiKeyRecord {
  id: number;
  keyHash: string;
  createdAt: string;
}

/** The encrypted secret of a wallet as the vault produced it (all base64 except keyId). */
export interface EncryptedSecret {
  ciphertext: string;
  nonce: string;
  tag: string;
  keyId: string;
}

export interface WalletRecord extends EncryptedSecret {
  /** Internal row id (instance-wide); never shown by the API. */
  id: number;
  /** The wallet's number within its key (1, 2, …): the `id` the API shows. */
  seq: number;
  apiKeyId: number;
  publicKey: string;
  status: "active";
  isDefault: boolean;
  /** ISO 8601 without zone suffix (UTC), e.g. 2026-01-02T03:04:05.678. */
  createdAt: string;
}

/**
 * The word an execution record's kind is stored under. The store keeps it as given: which words exist is the
 * domain's (its execution kinds' list, src/domain/kinds.ts, checked where a request or a filter names one).
 */
export type ExecutionKind = string;
export type ExecutionStatus =
  "pending" | "submitted" | "confirmed" | "finalized" | "failed" | "timeout" | "expired";

/** Statuses whose outcome the chain has not settled yet; reconciliation moves them to a final one. */
export const OPEN_EXECUTION_STATUSES = [
  "pending",
  "submitted",
  "timeout",
] as const satisfies readonly ExecutionStatus[];

export interface ExecutionRecord {
  id: string;
  apiKeyId: number;
  kind: ExecutionKind;
  /** Primary signer; deleting this wallet deletes the record. */
  wallet: string;
  wallets: string[];
  signatures: string[];
  bundleId: string | null;
  status: ExecutionStatus;
  confirmationStatus: string | null;
  /** Request summary; never holds a secret. */
  request: unknown;
  response: unknown;
  /** e.g. { detail, program_error, logs }. */
  error: unknown;
  timings: unknown;
  /** Block height after which the transaction(s) can no longer land; null for records older than the column. */
  lastValidBlockHeight: number | null;
  /** The Idempotency-Key of the request that recorded it (scoped to the API key), if it had one. */
  idempotencyKey: string | null;
  /** Compute-unit price (micro-lamports per CU) of the transaction (highest of a bundle's legs); null on older records. */
  computeUnitPriceMicroLamports: bigint | null;
  createdAt: string;
  updatedAt: string;
}

export type NewExecution = Omit<
  ExecutionRecord,
  "createdAt" | "updatedAt" | "lastValidBlockHeight" | "idempotencyKey" | "computeUnitPriceMicroLamports"
> & {
  createdAt?: string;
  computeUnitPriceMicroLamports?: bigint | null;
  lastValidBlockHeight?: number | null;
  idempotencyKey?: string | null;
};

export type ExecutionPatch = Partial<
  Pick<
    ExecutionRecord,
    "signatures" | "wallets" | "bundleId" | "status" | "confirmationStatus" | "response" | "error" | "timings"
  >
>;

export interface ListExecutionsQuery {
  apiKeyId: number;
  wallet?: string;
  kind?: ExecutionKind;
  status?: ExecutionStatus;
  /** Only executions that carry this transaction signature (any leg of a bundle). */
  signature?: string;
  limit: number;
  offset?: number;
  /** Only records older than this one in the listing order (created_at desc, id desc): cursor paging. */
  before?: { createdAt: string; id: string };
  /** Issue 19: a wallet-bound key sees only executions every signing wallet of which is in this list. */
  onlyWallets?: readonly string[];
}

/** A stored Idempotency-Key: running (owner holds it until lockedUntilMs) or done (response stored). */
export interface IdempotencyRecord {
  id: number;
  apiKeyId: number;
  /** The key (root or sub-key) that sent it: another key's same Idempotency-Key is another record. */
  keyId: number;
  key: string;
  fingerprint: string;
  owner: string;
  lockedUntilMs: number;
  /** Set once the first request finished: replayed byte for byte. */
  response: { status: number; contentType: string; body: string } | null;
  createdAtMs: number;
}

/** The Idempotency-Key methods of the store. */
export type IdempotencyStore = Pick<
  Store,
  | "hasIdempotentExecution"
  | "insertIdempotencyKey"
  | "findIdempotencyKey"
  | "leaseIdempotencyKey"
  | "completeIdempotencyKey"
  | "releaseIdempotencyKey"
  | "deleteExpiredIdempotencyKey"
  | "purgeIdempotencyKeys"
>;

/** Inputs of claiming a key for a new request: the record before it has an id or a response. */
export type NewIdempotencyKey = Omit<IdempotencyRecord, "id" | "response">;

/** Inputs of `claimOpenExecutions`. */
export interface ClaimOpenExecutions {
  /** Who claims (one process); its lease on each returned record ends at `leaseUntilMs`. */
  owner: string;
  nowMs: number;
  leaseUntilMs: number;
  /**
   * Only records last updated at or before this ISO time (their own request has finished waiting). Inclusive:
   * a grace of 0 must also take a record written in the same millisecond as the pass.
   */
  updatedNotAfter: string;
  /**
   * For records already sent (submitted / timeout: no request waits on them any more), this cut replaces
   * `updatedNotAfter`, so they get their first look within seconds (issue 22). Default: `updatedNotAfter`.
   */
  sentUpdatedNotAfter?: string;
  limit: number;
}

export interface NewWallet extends EncryptedSecret {
  publicKey: string;
  createdAt: string;
  /**
   * Issue 29: the key whose request adds the wallet and whether it counts as the account's own for
   * `destinations_allow` (the custody store sets it; absent: setup or no request, which counts as own).
   */
  origin?: { keyId: number; vouched: boolean };
}

/** Thrown by the store when a key already holds the public key being added. */
export class DuplicateWalletError extends Error {
  constructor() {
    super("wallet already linked to this key");
    this.name = "DuplicateWalletError";
  }
}

/** Adding the wallet would take the key past MAX_WALLETS_PER_KEY. */
export class WalletLimitError extends Error {
  constructor(readonly max: number) {
    super(`key holds the maximum of ${max} wallets`);
    this.name = "WalletLimitError";
  }
}

/** Fixed-window request counting shared by every process on the database (per-key budgets). */
export interface RateCounterStore {
  /**
   * Adds one to `key`'s counter for the window starting at `windowStartMs` (a counter of an older window
   * restarts at 1) and returns the count including this request. Atomic across processes.
   */
  countRequest(key: string, windowStartMs: number): Promise<number>;
  /** Counts one request for each of `keys` (distinct) in one statement; the counts in the same order. */
  countRequests(keys: readonly string[], windowStartMs: number): Promise<number[]>;
}

export interface Store
  extends
    CustodyStore,
    EventStore,
    WebhookStore,
    RateCounterStore,
    PositionStore,
    OrderStore,
    OrderFireStore,
    OutsideBuildStore,
    CopyFireStore {
  readonly dialect: "sqlite" | "postgres";
  /** Creates an API key and its first (default) wallet in one transaction. */
  createApiKeyWithWallet(
    keyHash: string,
    wallet: NewWallet,
  ): Promise<{ apiKey: ApiKeyRecord; wallet: WalletRecord }>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /**
   * Adds a wallet to a key. It becomes default when `makeDefault` is true or the key has no wallet.
   * Throws DuplicateWalletError when the key already holds the public key.
   */
  addWallet(
    apiKeyId: number,
    wallet: NewWallet,
    makeDefault: boolean,
    /** When set, throws WalletLimitError if the key already holds this many wallets (checked under its lock). */
    maxWallets?: number,
  ): Promise<WalletRecord>;
  /** The key's wallets, oldest first. */
  listWallets(apiKeyId: number): Promise<WalletRecord[]>;
  findWallet(apiKeyId: number, publicKey: string): Promise<WalletRecord | undefined>;
  findDefaultWallet(apiKeyId: number): Promise<WalletRecord | undefined>;
  /** Makes the wallet the key's only default; undefined when the key does not hold it. */
  setDefaultWallet(apiKeyId: number, publicKey: string): Promise<WalletRecord | undefined>;
  /**
   * Deletes the wallet and hides the executions whose primary wallet it is (kept in the database, marked
   * delinked: listExecutions no longer returns them); promotes the oldest remaining
   * wallet when the default was removed. False when the key does not hold it.
   */
  deleteWallet(apiKeyId: number, publicKey: string): Promise<boolean>;
  /** Any one stored wallet (for the start-up master-key check). */
  anyWallet(): Promise<WalletRecord | undefined>;
  /** How many wallets each master key id encrypts (for key rotation), ordered by key id. */
  walletKeyIdCounts(): Promise<{ keyId: string; count: number }[]>;
  /** Up to `limit` wallets not encrypted under `keyId` with id above `afterId`, by id (rotation batches). */
  listWalletsNotUnderKey(keyId: string, afterId: number, limit: number): Promise<WalletRecord[]>;
  /**
   * Replaces a wallet's encrypted secret in its own transaction, only while it still holds `expected`
   * (same key id, nonce and ciphertext); false when the wallet was deleted or changed meanwhile.
   */
  replaceWalletSecret(id: number, expected: EncryptedSecret, next: EncryptedSecret): Promise<boolean>;
  insertExecution(execution: NewExecution): Promise<ExecutionRecord>;
  updateExecution(id: string, patch: ExecutionPatch): Promise<ExecutionRecord | undefined>;
  /** Newest first. */
  listExecutions(query: ListExecutionsQuery): Promise<ExecutionRecord[]>;
  /**
   * Leases up to `limit` open executions (pending / submitted / timeout, oldest update first) that no other
   * process holds a live lease on (the owner's own leases are renewed), and returns them. Atomic across processes sharing the database.
   */
  claimOpenExecutions(claim: ClaimOpenExecutions): Promise<ExecutionRecord[]>;
  /** Writes a reconciled outcome only while `owner` holds the lease and the record is still open. */
  settleExecution(id: string, owner: string, patch: ExecutionPatch): Promise<boolean>;
  /**
   * Gives back a leased record that the chain has not settled yet, not to be claimed again (by anyone) before
   * `notBeforeMs`: reconciliation's backoff. False when `owner` no longer holds the lease.
   */
  deferExecution(id: string, owner: string, notBeforeMs: number): Promise<boolean>;
  /** Whether any execution was recorded under this Idempotency-Key. */
  hasIdempotentExecution(apiKeyId: number, key: string): Promise<boolean>;
  /** Inserts a running key and returns its id; undefined when the key already exists for this API key. */
  insertIdempotencyKey(row: NewIdempotencyKey): Promise<number | undefined>;
  /** The record of `key` sent by key `keyId` of account `apiKeyId`. */
  findIdempotencyKey(apiKeyId: number, keyId: number, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Changes a running key's owner and lease only while it still has `expected` owner and lease (takeover of
   * a stale key, or a lease extension by its owner); false otherwise.
   */
  leaseIdempotencyKey(
    id: number,
    expected: { owner: string; lockedUntilMs: number },
    next: { owner: string; lockedUntilMs: number },
  ): Promise<boolean>;
  /** Stores the response of a running key held by `owner`; false when the owner lost it. */
  completeIdempotencyKey(
    id: number,
    owner: string,
    response: { status: number; contentType: string; body: string },
  ): Promise<boolean>;
  /** Deletes the key if `owner` holds it (a request that recorded nothing releases its key). */
  releaseIdempotencyKey(id: number, owner: string): Promise<void>;
  /** Deletes one key row created before `createdBeforeMs` (an expired key being reused). */
  deleteExpiredIdempotencyKey(id: number, createdBeforeMs: number): Promise<void>;
  /** Deletes every key created before `createdBeforeMs`; returns how many. */
  purgeIdempotencyKeys(createdBeforeMs: number): Promise<number>;
  /**
   * Records a hit for `key` at `nowMs` unless one was recorded within the last `windowMs`;
   * true when the hit was allowed. Atomic across processes sharing the database.
   */
  hitRateLimit(key: string, nowMs: number, windowMs: number): Promise<boolean>;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
