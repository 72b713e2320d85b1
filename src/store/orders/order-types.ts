/** Records and store methods of the orders (limit, take-profit, stop-loss, trailing stop, bracket). */
import type { ExecutionRecord, NewExecution } from "../types.js";
import type { SpendReservation } from "../keys/custody-types.js";

/** The states of an order (the domain's OrderState, repeated here: the store imports nothing above it). */
export type OrderStateName = "open" | "triggered" | "filled" | "failed" | "cancelled" | "expired";

/** One stored order. */
export interface OrderRecord {
  id: string;
  /** The account (root key id) whose wallet trades, as executions' apiKeyId. */
  accountId: number;
  /** The key that created it: its scopes and policy are checked again when the order fires. */
  keyId: number;
  kind: string;
  side: "buy" | "sell";
  mint: string;
  wallet: string;
  /** The order's parameters (the domain's JSON text). */
  spec: string;
  state: OrderStateName;
  /** Counts state changes: a claim names the version it evaluated. */
  version: number;
  /** Sends so far (the execution's idempotency key is `order:<id>:<attempt>`). */
  attempt: number;
  leaseOwner: string | null;
  leaseUntilMs: number | null;
  /** trailing_stop: the highest price seen (SOL × 10^18 per whole token, decimal text). */
  peak: string | null;
  /** Which trigger fired (limit, take_profit, stop_loss, trailing_stop). */
  triggeredBy: string | null;
  /** The state's reason: a policy refusal, the chain's error, the cancellation. */
  error: unknown;
  executionIds: string[];
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A new order (open, version 1, attempt 0). */
export type NewOrder = Pick<
  OrderRecord,
  "id" | "accountId" | "keyId" | "kind" | "side" | "mint" | "wallet" | "spec" | "expiresAt" | "peak"
>;

/**
 * What a fire's claim commits on: none of `keys` revoked or frozen (the root: its account freeze), their rows at the
 * versions the fire decided on (any change to what a custody decision reads counts a version up), and the wallet
 * it signed with still there.
 */
export interface LiveCheck {
  /** The firing key, every key above it, the account's root key (each once). */
  keys: readonly number[];
  /** `<rows>:<sum of their versions>` as the fire read them (the versions only grow: any change moves the sum). */
  versions: string;
  /** The row id of the wallet the fire signed with. */
  walletId: number;
}

/** A state change: the row must still be in `from` (and version, when given); the version grows by one. */
export interface OrderTransition {
  id: string;
  from: OrderStateName;
  version?: number;
  /** For a triggered order: only while this process holds its lease. */
  owner?: string;
  to: OrderStateName;
  /**
   * A claim (open → triggered) counts one more attempt and takes the lease. `live`: what the fire decided on, which
   * the claim then commits only while it still holds (live-keys.ts), so a fire's key and wallet are checked in the
   * commit that records what it sends.
   */
  claim?: { owner: string; leaseUntilMs: number; live?: LiveCheck };
  triggeredBy?: string | null;
  error?: unknown;
  /** Appended to the order's executions. */
  executionId?: string;
  /** Account id, for the event row (the order's own). */
}

/** Adding the order would take its key past MAX_OPEN_ORDERS_PER_KEY. */
export class OpenOrderLimitError extends Error {
  constructor(readonly max: number) {
    super(`key holds the maximum of ${max} open orders`);
    this.name = "OpenOrderLimitError";
  }
}

/** Inputs of `listOrders`: newest first. */
export interface ListOrdersQuery {
  accountId: number;
  state?: OrderStateName;
  mint?: string;
  /** Issue 19: a wallet-bound key sees only its wallets' orders. */
  onlyWallets?: readonly string[];
  limit: number;
}

/** The orders methods of the store. */
export interface OrderStore {
  /** Inserts an open order unless its key already holds `maxOpen` open or triggered orders (checked under the key's lock). */
  insertOrder(order: NewOrder, maxOpen: number): Promise<OrderRecord>;
  findOrder(accountId: number, id: string): Promise<OrderRecord | undefined>;
  listOrders(query: ListOrdersQuery): Promise<OrderRecord[]>;
  /** Every open or triggered order of every account (loaded at start), or those changed at or after `since` (ISO). */
  liveOrders(since?: string): Promise<OrderRecord[]>;
  /**
   * Moves an order from one state to another by a conditional update (exactly once across processes), writing
   * its `order.<state>` event in the same transaction; the row after, or undefined when it was not in `from`.
   */
  transitionOrder(t: OrderTransition): Promise<OrderRecord | undefined>;
  /**
   * Claims an order (`t`, open → triggered with a lease) and records its attempt's execution (pending, with its
   * signature, before anything is sent) in one transaction, with the 24 h reservation when one is given: both or
   * neither. Undefined when the claim lost (the order was no longer open at `t.version`): nothing was written.
   * A reservation over its cap throws SpendCapExceededError, and nothing is written either.
   */
  claimOrderRecording(
    t: OrderTransition,
    execution: NewExecution,
    reservation: SpendReservation | null,
  ): Promise<{ order: OrderRecord; execution: ExecutionRecord } | undefined>;
  /** Triggered orders whose lease ended before `nowMs` (their process died), leased anew to `owner`. */
  reclaimOrders(owner: string, nowMs: number, leaseUntilMs: number, limit: number): Promise<OrderRecord[]>;
  /**
   * Extends the lease of a triggered order while `owner` still holds it (a heartbeat of a fire under way); false
   * when it does not (settled, or taken over).
   */
  renewOrderLease(id: string, owner: string, leaseUntilMs: number): Promise<boolean>;
  /** Remembers a trailing stop's highest price (no version change: it is not a state). */
  setOrderPeak(id: string, peak: string): Promise<void>;
  /** The execution recorded under an Idempotency-Key of the account, if any. */
  findExecutionIdByKey(accountId: number, key: string): Promise<string | undefined>;
}

/** One fire of a standing order (snipe) on one mint. */
export interface OrderFireRecord {
  orderId: string;
  accountId: number;
  mint: string;
  lamports: bigint;
  executionId: string | null;
  atMs: number;
  /** The policy refusal of the fire ({ rule, detail }), null when it was not refused. */
  refused: unknown;
  /**
   * null while claimed (or refused, or written before outcomes were kept); then filled, pending or failed (its
   * execution's state at the fire), failed:<reason> (nothing recorded nor sent) or dropped:<why>.
   */
  outcome: string | null;
}

/** A claim of one fire: refused when the order is not open, the mint was fired, or the window's cap is reached. */
export interface OrderFireClaim {
  orderId: string;
  accountId: number;
  mint: string;
  lamports: bigint;
  atMs: number;
  /** At most `max` fires at or after `sinceMs` (null: no cap). */
  window: { sinceMs: number; max: number } | null;
}

/** The standing orders' fire claims (one row per order and mint). */
export interface OrderFireStore {
  /**
   * Claims a fire: "claimed" (a new row, or a row whose fire was refused), or why not ("closed": the order is
   * not open, "fired": this mint was, "cap": the window's fires, refused ones left out, reach its max).
   */
  claimOrderFire(c: OrderFireClaim): Promise<"claimed" | "closed" | "fired" | "cap">;
  /**
   * Records that the key's policy refused a claimed fire (nothing was recorded or sent): the row keeps the
   * refusal, and a later claim of the same (order, mint) may take it again.
   */
  refuseOrderFire(orderId: string, mint: string, refusal: unknown): Promise<void>;
  /**
   * Notes the execution a fire produced and its state then (`outcome`: filled, pending, failed), and appends it to
   * the order's executions.
   */
  setOrderFireExecution(orderId: string, mint: string, executionId: string, outcome: string): Promise<void>;
  /**
   * Settles a claimed fire that recorded nothing, so sent nothing (the build, the balance check or the process
   * failed before its record): `outcome` is failed:<reason> (final: the mint is not claimed again; not counted in
   * the hourly cap), or dropped:<why> (counted). A row with an execution or a refusal is left as it is.
   */
  failOrderFire(orderId: string, mint: string, outcome: string): Promise<void>;
  /** Claimed fires of every order still unsettled (no execution, refusal nor outcome) before `beforeMs`, oldest first. */
  unsettledOrderFires(beforeMs: number, limit: number): Promise<OrderFireRecord[]>;
  /**
   * Settles a fire whose process ended before settling it, only if it is still unsettled (one reconciler wins):
   * from the execution it recorded (appended to the order's), or `dropped:<why>` without one (counted in the
   * hourly cap: deny by default). True when this call settled it.
   */
  reconcileOrderFire(
    orderId: string,
    mint: string,
    executionId: string | null,
    outcome: string,
  ): Promise<boolean>;
  /** The order's fires, oldest first. */
  orderFires(orderId: string): Promise<OrderFireRecord[]>;
  /** A page of the order's fires, newest first, after the cursor `(atMs, mint)` of the last one seen. */
  orderFirePage(orderId: string, page: FirePage): Promise<OrderFireRecord[]>;
}

/** One followed trade a copy order took: fired (with its SOL, for the caps) or skipped with the reason. */
export interface CopyFireRecord {
  orderId: string;
  accountId: number;
  signature: string;
  mint: string;
  side: "buy" | "sell";
  /** SOL the copied buy claimed against the caps (0 for sells, skips, and buys refused before a send). */
  lamports: bigint;
  executionId: string | null;
  /** null while firing; then filled, pending, failed, refused:<rule> or skipped:<reason>. */
  outcome: string | null;
  atMs: number;
  /** The followed wallet and its trade's SOL (lamports) and tokens (units); null on rows from before they were kept. */
  trader: string | null;
  theirLamports: bigint | null;
  theirUnits: bigint | null;
  /** The amount of the trade we sent: SOL for a buy, token units or a percent of our position for a sell. */
  ourAmount: string | null;
}

/**
 * A claim of one followed trade: a buy's `lamports` are cut to what the caps leave (per token: the order's buys
 * of the mint; per day: its buys since `daySinceMs`); `skip` records the trade as skipped with that reason.
 */
export interface CopyFireClaim {
  orderId: string;
  accountId: number;
  signature: string;
  mint: string;
  side: "buy" | "sell";
  lamports: bigint;
  atMs: number;
  perTokenLamports: bigint | null;
  perDay: { sinceMs: number; lamports: bigint } | null;
  skip: string | null;
  /** The followed wallet and its trade's sizes (recorded for GET /v1/orders/{id}/fires). */
  trader: string;
  theirLamports: bigint;
  theirUnits: bigint;
  /** A sell's amount (token units or a percent); a buy's is the SOL the caps leave. */
  sellAmount: string | null;
}

/** How a copy claim ended: claimed (with the SOL it may spend), skipped (recorded), or not this process's. */
export type CopyClaimResult =
  | { result: "claimed"; lamports: bigint }
  | { result: "skipped"; reason: string }
  | { result: "closed" }
  | { result: "fired" };

/** The copy orders' fire claims (one row per order and followed trade signature). */
export interface CopyFireStore {
  /** Claims a followed trade once across processes, under the order's lock (caps counted there). */
  claimCopyFire(c: CopyFireClaim): Promise<CopyClaimResult>;
  /** Notes a fire's outcome and execution (appended to the order's executions); nothing sent frees its SOL. */
  settleCopyFire(
    orderId: string,
    signature: string,
    executionId: string | null,
    outcome: string,
  ): Promise<void>;
  /** The order's copy fires, oldest first. */
  copyFires(orderId: string): Promise<CopyFireRecord[]>;
  /** Claims of every order whose outcome is still unknown (null) and claimed before `beforeMs`, oldest first. */
  unsettledCopyFires(beforeMs: number, limit: number): Promise<CopyFireRecord[]>;
  /**
   * Settles a claim whose process ended before settling it, only if it is still unsettled (one reconciler wins):
   * from the execution it recorded (appended to the order's), or `dropped:<why>` without one. The SOL it claimed
   * stays counted in the caps (deny by default: a dead process's claim is not known to have sent nothing
   * until its record is found). True when this call settled it.
   */
  reconcileCopyFire(
    orderId: string,
    signature: string,
    executionId: string | null,
    outcome: string,
  ): Promise<boolean>;
  /** A page of the order's copy fires, newest first, after the cursor `(atMs, signature)` of the last one seen. */
  copyFirePage(orderId: string, page: FirePage): Promise<CopyFireRecord[]>;
}

/** A page of fire records, newest first: `after` is the last record of the previous page (time, then its key). */
export interface FirePage {
  limit: number;
  after?: { atMs: number; key: string };
}
