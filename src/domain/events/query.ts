/** The query of GET /v1/events (stream and page), its parsing, and the public view of an event. */
import { parseAddress } from "../../core/addresses.js";
import { badRequest, EVENTS, TRADE_RULES } from "../../core/errors.js";
import { parseQueryInt } from "../../core/request-fields.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { EventBounds, EventRecord, ExecutionKind } from "../../store/index.js";
import { EXECUTION_STATUSES } from "../execution/history.js";
import { positionOfEvent, type PositionView } from "../positions/view.js";

/** Default and maximum page size of the JSON form. */
export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 1000;

/** A validated events query; `after` undefined = no cursor given. */
export interface EventsQuery {
  after: number | undefined;
  limit: number;
  types?: string[];
  kind?: ExecutionKind;
  wallet?: string;
  /** Issue 19: set by the route for a wallet-bound key (never from the query): only its wallets' events. */
  onlyWallets?: readonly string[];
}

/** One event as the API shows it (stream, page and webhook body). */
export interface EventView {
  id: number;
  type: string;
  execution_id: string;
  kind: ExecutionKind | "order";
  wallets: string[];
  signatures: string[];
  status: string;
  error: unknown;
  created_at: string;
  /** Issue 33: position.updated events carry the position (ledger figures; not valued: see docs/positions.md). */
  position?: PositionView;
}

/** Issue 31: the order lifecycle events (written by the orders store in the transaction of each change). */
export const ORDER_EVENT_TYPES = [
  "order.created",
  "order.triggered",
  "order.filled",
  "order.failed",
  "order.cancelled",
  "order.expired",
] as const;

/**
 * Every event type: one per execution status (the outbox trigger writes `execution.<status>`) and the order
 * lifecycle (`order.<what>`, whose `execution_id` is the order id and `kind` is `order`), and `position.updated`
 * (issue 33: written with the fill that moved the position).
 */
export const EVENT_TYPES: readonly string[] = [
  ...EXECUTION_STATUSES.map((s) => `execution.${s}`),
  "position.updated",
  ...ORDER_EVENT_TYPES,
];

/** Parses an event id cursor (a non-negative integer below 2^53); 400 otherwise. */
export function parseEventCursor(value: unknown): number {
  const cursor = parseQueryInt(value, EVENTS.eventCursorInvalid, { max: 999_999_999_999_999 });
  if (cursor === undefined) throw badRequest(EVENTS.eventCursorInvalid);
  return cursor;
}

/** Parses a comma-separated list of event types (`execution.confirmed,execution.failed`). */
export function parseEventTypes(value: unknown): string[] {
  if (typeof value !== "string") throw badRequest(EVENTS.typesInvalid);
  const types = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (types.length === 0 || types.length > 50 || !types.every((t) => EVENT_TYPES.includes(t)))
    throw badRequest(EVENTS.typesInvalid);
  return [...new Set(types)];
}

/**
 * Parses the query of GET /v1/events. `Last-Event-ID` (sent by a reconnecting EventSource, which keeps its
 * original URL) wins over `?after=`.
 */
export function parseEventsQuery(
  query: Record<string, unknown>,
  lastEventId: unknown,
  /** The words executions are recorded under (recordedKinds of the served kinds). */
  kinds: readonly string[],
): EventsQuery {
  const cursor = lastEventId !== undefined && lastEventId !== "" ? lastEventId : query.after;
  const out: EventsQuery = {
    after: cursor === undefined || cursor === "" ? undefined : parseEventCursor(cursor),
    limit: EVENTS_DEFAULT_LIMIT,
  };
  const limit = parseQueryInt(query.limit, EVENTS.eventLimitInvalid, { min: 1, max: EVENTS_MAX_LIMIT });
  if (limit !== undefined) out.limit = limit;
  if (query.types !== undefined && query.types !== "") out.types = parseEventTypes(query.types);
  if (query.kind !== undefined && query.kind !== "") {
    if (!(kinds as readonly unknown[]).includes(query.kind))
      throw badRequest(EVENTS.kindInvalid(kinds.join(", ")), { allowed: [...kinds] });
    out.kind = query.kind as ExecutionKind;
  }
  if (query.wallet !== undefined && query.wallet !== "")
    out.wallet = parseAddress(query.wallet, TRADE_RULES.walletInvalid);
  return out;
}

/** Whether events after `cursor` were purged before being read (the cursor is older than the retention). */
export function isGap(bounds: EventBounds, cursor: number): boolean {
  // Ids are dense per account, so anything between the cursor and the oldest retained id is gone.
  return bounds.oldest !== null ? cursor < bounds.oldest - 1 : cursor < bounds.last;
}

/** The public view of a stored event. */
export function eventView(e: EventRecord): EventView {
  return {
    id: e.id,
    type: e.type,
    execution_id: e.executionId,
    kind: e.kind,
    wallets: e.wallets,
    signatures: e.signatures,
    status: e.status,
    error: e.error,
    created_at: utcTimestamp(e.createdAt),
    ...(e.type === "position.updated" ? positionOfEvent(e.data) : {}),
  };
}
