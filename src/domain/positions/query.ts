/** Issue 33: the queries of GET /v1/positions and GET /v1/pnl, parsed with their texts (400 naming the allowed values). */
import { parseAddress } from "../../core/addresses.js";
import { badRequest, POSITIONS, TRADE_RULES } from "../../core/errors.js";
import { parseQueryInt } from "../../core/request-fields.js";

/** Default and maximum page size of GET /v1/positions. */
export const POSITIONS_DEFAULT_LIMIT = 100;
export const POSITIONS_MAX_LIMIT = 500;

export const POSITION_STATUSES = ["open", "closed"] as const;
export const PNL_GROUPS = ["day", "mint", "wallet"] as const;
/** warm: value from the warm venue state only; read: read the venue when not warm; none: no valuation. */
export const VALUATIONS = ["warm", "read", "none"] as const;
/** A page values from the warm state only: a page of hundreds of positions never waits on the RPC. */
export const LIST_VALUATIONS = ["warm", "none"] as const;

export type PnlGroup = (typeof PNL_GROUPS)[number];
export type ValuationMode = (typeof VALUATIONS)[number];

/** A validated positions listing query. */
export interface PositionsQuery {
  wallet?: string;
  mint?: string;
  status?: "open" | "closed";
  after?: { wallet: string; mint: string };
  limit: number;
  valuation: ValuationMode;
}

/** A validated PnL query: [from, to) as stored timestamps (ISO without zone), and the grouping. */
export interface PnlQuery {
  from?: string;
  to?: string;
  groupBy?: PnlGroup;
}

const empty = (v: unknown): boolean => v === undefined || v === "";

/** One of `allowed`, or a 400 with `text` and the allowed values beside it. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[], text: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw badRequest(text, { allowed: [...allowed] });
}

/** The cursor of the position after which the next page starts: base64url of `wallet:mint`. */
export function positionCursor(p: { wallet: string; mint: string }): string {
  return Buffer.from(`${p.wallet}:${p.mint}`).toString("base64url");
}

function parseCursor(value: unknown): { wallet: string; mint: string } {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,200}$/.test(value))
    throw badRequest(POSITIONS.cursorInvalid);
  const [wallet, mint, extra] = Buffer.from(value, "base64url").toString("utf8").split(":");
  if (extra !== undefined || wallet === undefined || mint === undefined)
    throw badRequest(POSITIONS.cursorInvalid);
  return {
    wallet: parseAddress(wallet, POSITIONS.cursorInvalid),
    mint: parseAddress(mint, POSITIONS.cursorInvalid),
  };
}

/** Parses the query of GET /v1/positions. */
export function parsePositionsQuery(query: Record<string, unknown>): PositionsQuery {
  const out: PositionsQuery = { limit: POSITIONS_DEFAULT_LIMIT, valuation: "warm" };
  const limit = parseQueryInt(query.limit, POSITIONS.limitInvalid, { min: 1, max: POSITIONS_MAX_LIMIT });
  if (limit !== undefined) out.limit = limit;
  if (!empty(query.wallet)) out.wallet = parseAddress(query.wallet, TRADE_RULES.walletInvalid);
  if (!empty(query.mint)) out.mint = parseAddress(query.mint, TRADE_RULES.mintInvalid);
  if (!empty(query.status)) out.status = oneOf(query.status, POSITION_STATUSES, POSITIONS.statusInvalid);
  if (!empty(query.after)) out.after = parseCursor(query.after);
  if (!empty(query.valuation))
    out.valuation = oneOf(query.valuation, LIST_VALUATIONS, POSITIONS.listValuationInvalid);
  return out;
}

/** Parses the valuation switch of one position (default read: one position may take one venue read). */
export function parseValuation(value: unknown, fallback: ValuationMode): ValuationMode {
  return empty(value) ? fallback : oneOf(value, VALUATIONS, POSITIONS.valuationInvalid);
}

const DATE = /^\d{4}-\d\d-\d\d$/;
// RFC 3339 with its zone (Z or ±hh:mm): a time without one would be read in the server's zone.
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/i;

/** A date (midnight UTC) or an RFC 3339 time as the store's timestamp (ISO in UTC without zone). */
export function parseInstant(value: unknown, text: string): string {
  if (typeof value !== "string" || !(DATE.test(value) || TIME.test(value))) throw badRequest(text);
  const ms = Date.parse(DATE.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw badRequest(text);
  return new Date(ms).toISOString().slice(0, -1);
}

/** Parses the query of GET /v1/pnl. */
export function parsePnlQuery(query: Record<string, unknown>): PnlQuery {
  const out: PnlQuery = {};
  if (!empty(query.from)) out.from = parseInstant(query.from, POSITIONS.fromInvalid);
  if (!empty(query.to)) out.to = parseInstant(query.to, POSITIONS.toInvalid);
  if (out.from !== undefined && out.to !== undefined && out.from >= out.to)
    throw badRequest(POSITIONS.rangeInvalid);
  if (!empty(query.group_by)) out.groupBy = oneOf(query.group_by, PNL_GROUPS, POSITIONS.groupByInvalid);
  return out;
}
