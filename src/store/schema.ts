/** Kysely table types. Booleans are 0/1 integers and JSON is text so both engines store the same values. */
import type { Generated } from "kysely";

export interface ApiKeysTable {
  id: Generated<number>;
  key_hash: string;
  created_at: string;
  /** Last per-key wallet number handed out (hardening migration); wallet ids count per key, not instance-wide. */
  wallet_seq: Generated<number>;
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

/** Fixed-window request counters of the per-key budgets (hardening migration). */
export interface RateCountersTable {
  key: string;
  window_start_ms: number | string;
  count: number;
}

export interface Database {
  api_keys: ApiKeysTable;
  wallets: WalletsTable;
  executions: ExecutionsTable;
  rate_limit_hits: RateLimitHitsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_counters: RateCountersTable;
}
