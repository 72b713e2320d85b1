/** The execution history of an API key (GET /v1/executions): paging and filter rules, and the public view. */
import { parseAddress } from "../../core/addresses.js";
import { badRequest, EVENTS, EXECUTION, OUTCOME_RULES, TRADE_RULES } from "../../core/errors.js";
import { parseQueryInt } from "../../core/request-fields.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { ExecutionKind, ExecutionRecord, ExecutionStatus, Store } from "../../store/index.js";

// A record keyed by every status: a status added to the store's type without a line here does not compile.
const STATUS_SET: Record<ExecutionStatus, true> = {
  pending: true,
  submitted: true,
  confirmed: true,
  finalized: true,
  failed: true,
  timeout: true,
  expired: true,
};

/** Every status an execution can take (the history's `status` filter; events are `execution.<status>`). */
export const EXECUTION_STATUSES = Object.keys(STATUS_SET) as readonly ExecutionStatus[];

/** Default and maximum page size. */
const HISTORY_DEFAULT_LIMIT = 50;
const HISTORY_MAX_LIMIT = 200;

/** A validated history query. */
export interface HistoryQuery {
  limit: number;
  offset: number;
  wallet?: string;
  kind?: ExecutionKind;
  /** Only executions in this status (issue 30: was ignored). */
  status?: ExecutionStatus;
  /** Only the executions carrying this transaction signature (issue 22). */
  signature?: string;
  /** Cursor paging: the page after this record (from `next_cursor`). */
  after?: { createdAt: string; id: string };
  /** Issue 19: set by the route for a wallet-bound key (never from the query): only its wallets' executions. */
  onlyWallets?: readonly string[];
}

/** One execution as the API shows it (no secrets are ever stored, so every stored field is public). */
export interface ExecutionView {
  id: string;
  kind: ExecutionKind;
  wallet: string;
  wallets: string[];
  signatures: string[];
  bundle_id: string | null;
  status: string;
  confirmation_status: string | null;
  request: unknown;
  response: unknown;
  error: unknown;
  timings: unknown;
  idempotency_key: string | null;
  /** Micro-lamports per compute unit the transaction paid (decimal string); null on older records. */
  compute_unit_price_micro_lamports: string | null;
  created_at: string;
  updated_at: string;
}

/** A page of history, newest first; `next_offset` is null on the last page. */
export interface HistoryPage {
  executions: ExecutionView[];
  limit: number;
  offset: number;
  next_offset: number | null;
  /** Pass as `?after=` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** Parses the query string of GET /v1/executions (limit 1..200 default 50, offset ≥ 0, wallet, kind, status). */
export function parseHistoryQuery(
  query: Record<string, unknown>,
  /** The words executions are recorded under (recordedKinds of the served kinds). */
  kinds: readonly string[],
): HistoryQuery {
  const limit =
    parseQueryInt(query.limit, EXECUTION.historyLimit, { min: 1, max: HISTORY_MAX_LIMIT }) ??
    HISTORY_DEFAULT_LIMIT;
  const offset = parseQueryInt(query.offset, EXECUTION.historyOffset, { max: 999_999_999 }) ?? 0;
  const out: HistoryQuery = { limit, offset };
  if (query.wallet !== undefined && query.wallet !== "") {
    out.wallet = parseAddress(query.wallet, TRADE_RULES.walletInvalid);
  }
  if (query.kind !== undefined && query.kind !== "") {
    if (!(kinds as readonly unknown[]).includes(query.kind))
      throw badRequest(EXECUTION.historyKind(kinds.join(", ")), { allowed: [...kinds] });
    out.kind = query.kind as ExecutionKind;
  }
  if (query.status !== undefined && query.status !== "") {
    if (!(EXECUTION_STATUSES as readonly unknown[]).includes(query.status))
      throw badRequest(EXECUTION.historyStatus);
    out.status = query.status as ExecutionStatus;
  }
  if (query.signature !== undefined && query.signature !== "")
    out.signature = parseSignature(query.signature);
  if (query.after !== undefined && query.after !== "") out.after = parseHistoryCursor(query.after);
  return out;
}

/** A base58 signature of 64 bytes is 86 to 88 characters long. */
function parseSignature(value: unknown): string {
  if (typeof value !== "string" || !/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value))
    throw badRequest(OUTCOME_RULES.signatureInvalid);
  return value;
}

/** The opaque cursor of a record: its place in the listing order (created_at, id). */
export function historyCursor(e: Pick<ExecutionRecord, "createdAt" | "id">): string {
  return Buffer.from(`${e.createdAt}|${e.id}`, "utf8").toString("base64url");
}

/** Parses a cursor made by `historyCursor`; 400 otherwise. */
export function parseHistoryCursor(value: unknown): { createdAt: string; id: string } {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,200}$/.test(value))
    throw badRequest(EVENTS.cursorInvalid);
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\|([A-Za-z0-9-]{1,64})$/.exec(
    Buffer.from(value, "base64url").toString("utf8"),
  );
  if (m === null) throw badRequest(EVENTS.cursorInvalid);
  return { createdAt: m[1]!, id: m[2]! };
}

/** The public view of a stored execution. */
export function executionView(e: ExecutionRecord): ExecutionView {
  return {
    id: e.id,
    kind: e.kind,
    wallet: e.wallet,
    wallets: e.wallets,
    signatures: e.signatures,
    bundle_id: e.bundleId,
    status: e.status,
    confirmation_status: e.confirmationStatus,
    request: e.request,
    response: e.response,
    error: e.error,
    timings: e.timings,
    idempotency_key: e.idempotencyKey,
    compute_unit_price_micro_lamports: e.computeUnitPriceMicroLamports?.toString() ?? null,
    created_at: utcTimestamp(e.createdAt),
    updated_at: utcTimestamp(e.updatedAt),
  };
}

/**
 * One page of the key's history, newest first. A wallet filter naming a wallet the key does not hold simply
 * matches nothing: the history is scoped to the key, so it reveals nothing about other keys.
 */
export async function listHistory(
  store: Pick<Store, "listExecutions">,
  apiKeyId: number,
  q: HistoryQuery,
): Promise<HistoryPage> {
  // One extra row tells whether another page exists without a count query.
  const rows = await store.listExecutions({
    apiKeyId,
    limit: q.limit + 1,
    offset: q.offset,
    ...(q.wallet !== undefined ? { wallet: q.wallet } : {}),
    ...(q.kind !== undefined ? { kind: q.kind } : {}),
    ...(q.status !== undefined ? { status: q.status } : {}),
    ...(q.signature !== undefined ? { signature: q.signature } : {}),
    ...(q.after !== undefined ? { before: q.after } : {}),
    ...(q.onlyWallets !== undefined ? { onlyWallets: q.onlyWallets } : {}),
  });
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    executions: page.map(executionView),
    limit: q.limit,
    offset: q.offset,
    next_offset: more ? q.offset + q.limit : null,
    next_cursor: more && last !== undefined ? historyCursor(last) : null,
  };
}
