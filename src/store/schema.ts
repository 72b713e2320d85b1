/** Kysely table types. Booleans are 0/1 integers and JSON is text so both engines store the same values. */
import type { Generated } from "kysely";

export interface ApiKeysTable {
  id: Generated<number>;
  key_hash: string;
  created_at: string;
  // Issue 19 (custody): null on root keys unless set; see custody-migrations.ts.
  account_id: number | null;
  name: string | null;
  scopes: string | null;
  wallets: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  frozen: number | null;
  account_frozen: number | null;
  policy: string | null;
  /** Issue 29: the sub-key that created this one; null = the root key (or written before the column). */
  created_by_key_id: number | null;
  /** Last per-key wallet number handed out (hardening migration); wallet ids count per key, not instance-wide. */
  wallet_seq: Generated<number>;
  /** Counted up by the database when a column a custody decision reads changes (key-version-migrations.ts). */
  version: Generated<number>;
}

export interface WalletsTable {
  id: Generated<number>;
  api_key_id: number;
  public_key: string;
  status: string;
  is_default: number;
  ciphertext: string;
  nonce: string;
  tag: string;
  key_id: string;
  created_at: string;
  /** The wallet's number within its key: the `id` the API shows (hardening migration). */
  key_seq: number;
  /** Issue 29: the key whose request added the wallet; null at setup or before the migration. */
  added_by_key_id: number | null;
  /** Issue 29: 1 when the wallet counts as the account's own for `destinations_allow` (wallet-origin.ts). */
  vouched: Generated<number>;
}

export interface ExecutionsTable {
  id: string;
  api_key_id: number;
  kind: string;
  wallet: string;
  wallets: string;
  signatures: string;
  bundle_id: string | null;
  status: string;
  confirmation_status: string | null;
  request: string;
  response: string | null;
  error: string | null;
  timings: string | null;
  created_at: string;
  updated_at: string;
  last_valid_block_height: number | string | null;
  idempotency_key: string | null;
  reconcile_owner: string | null;
  reconcile_until_ms: number | string | null;
  compute_unit_price_micro_lamports: number | string | bigint | null;
  /** Set when the primary wallet was delinked: hidden from the API, kept as the key's trail (hardening). */
  delinked_at: string | null;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  api_key_id: number;
  /** The key (root or sub-key) that sent it: records are scoped per key (issue 29). */
  key_id: number;
  key: string;
  fingerprint: string;
  owner: string;
  locked_until_ms: number | string;
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  created_at_ms: number | string;
}

export interface RateLimitHitsTable {
  key: string;
  hit_at_ms: number | string;
}

/** Issue 20: the events outbox (written by triggers) and its per-account sequence. */
export interface EventSequencesTable {
  api_key_id: number;
  last_id: number | string;
}

export interface EventsTable {
  api_key_id: number;
  id: number | string;
  type: string;
  execution_id: string;
  kind: string;
  wallet: string;
  wallets: string;
  signatures: string;
  status: string;
  error: string | null;
  created_at: string;
  /** Issue 33: the event's own payload (JSON; a position.updated event's position); null on execution events. */
  data: string | null;
}

/** Issue 33: one position (wallet × mint) of an account; figures as JSON text (positions-migrations.ts). */
export interface PositionsTable {
  api_key_id: number;
  wallet: string;
  mint: string;
  status: string;
  figures: string;
  decimals: number | null;
  opened_at: string;
  last_trade_at: string;
  closed_at: string | null;
  last_execution_id: string | null;
  updated_at: string;
}

/** Issue 33: one ledger line (what one fill did to a position). */
export interface PositionEntriesTable {
  api_key_id: number;
  execution_id: string;
  /** The bundle leg whose fill this is (0 for a trade or a create); migration 2026_11_29_positions_legs. */
  leg: number;
  wallet: string;
  mint: string;
  side: string;
  entry: string;
  at: string;
}

export interface WebhooksTable {
  id: string;
  api_key_id: number;
  url: string;
  types: string;
  wallets: string | null;
  secret_ciphertext: string;
  secret_nonce: string;
  secret_tag: string;
  secret_key_id: string;
  cursor: number | string;
  disabled: number;
  disabled_reason: string | null;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  message_id: string;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_ms: number | string;
  lease_owner: string | null;
  lease_until_ms: number | string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface SpendReservationsTable {
  id: Generated<number>;
  key_id: number;
  execution_id: string;
  lamports: number | string | bigint;
  at_ms: number | string;
}

export interface ActivityLogTable {
  id: Generated<number>;
  account_id: number;
  at: string;
  key_id: number;
  key_name: string;
  method: string;
  route: string;
  wallets: string;
  execution_id: string | null;
  status: number;
  rule: string | null;
  ip: string | null;
  /** Issue 29: on a sampled refusal row, how many refusals it stands for; null on other rows (1). */
  refusals: number | null;
  /** Issue 30 (migration 2026_11_28_issue30_activity_target_key): the key a /v1/keys/:id request acted on. */
  target_key_id: number | null;
}

/** Fixed-window request counters of the per-key budgets (hardening migration). */
export interface RateCountersTable {
  key: string;
  window_start_ms: number | string;
  count: number;
}

/** Orders (migration 2026_11_28_orders, store/orders/). */
export interface OrdersTable {
  id: string;
  account_id: number;
  key_id: number;
  kind: string;
  side: string;
  mint: string;
  wallet: string;
  spec: string;
  state: string;
  version: number;
  attempt: number;
  lease_owner: string | null;
  lease_until_ms: number | string | null;
  peak: string | null;
  triggered_by: string | null;
  error: string | null;
  execution_ids: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One fire of a standing order (snipe) on one mint: the row is the claim (migration 2026_11_28_orders_z_fires). */
export interface OrderFiresTable {
  order_id: string;
  mint: string;
  account_id: number;
  lamports: string;
  execution_id: string | null;
  at_ms: number | string;
  /** The policy refusal of the fire (JSON), null otherwise: a refused fire can be claimed again, and is not counted. */
  refused: string | null;
  /**
   * How the fire ended (migration 2026_11_29_z_orders_fires_outcome): its execution's state, or failed:<reason> /
   * dropped:<why> when it sent nothing; null while claimed (and on a refused row, and on rows from before it).
   */
  outcome: string | null;
}

/** A transaction built for an outside wallet, until its blockhash window ends (migration 2026_11_29_outside_builds). */
export interface OutsideBuildsTable {
  hash: string;
  api_key_id: number;
  build: string;
  expires_at_ms: number | string;
  sent_at_ms: number | string | null;
}

export interface OrderCopyFiresTable {
  order_id: string;
  signature: string;
  account_id: number;
  mint: string;
  side: string;
  lamports: string;
  execution_id: string | null;
  outcome: string | null;
  at_ms: number | string;
  /**
   * The followed wallet, its trade's SOL (lamports) and tokens (units), and the amount we sent (migration
   * 2026_11_29_z_orders_copy_fires_detail; null on older rows).
   */
  trader: string | null;
  their_lamports: string | null;
  their_units: string | null;
  our_amount: string | null;
}

export interface Database {
  outside_builds: OutsideBuildsTable;
  orders: OrdersTable;
  order_fires: OrderFiresTable;
  order_copy_fires: OrderCopyFiresTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  event_sequences: EventSequencesTable;
  events: EventsTable;
  positions: PositionsTable;
  position_entries: PositionEntriesTable;
  api_keys: ApiKeysTable;
  wallets: WalletsTable;
  executions: ExecutionsTable;
  rate_limit_hits: RateLimitHitsTable;
  idempotency_keys: IdempotencyKeysTable;
  spend_reservations: SpendReservationsTable;
  activity_log: ActivityLogTable;
  rate_counters: RateCountersTable;
}
