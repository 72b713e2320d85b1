/**
 * Field helpers every request parser shares: the body type, presence (JSON null counts as absent), alias
 * lookup, booleans and the optional managed-wallet field. Kept in core so no capability imports another's parser.
 */
import { type Address, parseAddress } from "./addresses.js";
import { badRequest, EXECUTION, HARDENING, TRADE_RULES } from "./errors.js";

/** A JSON request body as the HTTP layer hands it over. */
export type RequestBody = Record<string, unknown>;

/** Whether a request field was sent: JSON null counts as absent. */
export const isPresent = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * The value of the first of `names` (a field and its aliases) present in `body` (JSON null counts as absent).
 * Two names sent with different values are ambiguous: a 400, never a silent pick.
 */
export function fieldOf(body: RequestBody, names: readonly string[]): unknown {
  // A plain loop: called for every field of every execution body, twice per request (issue 18).
  let first: string | undefined;
  for (const name of names) {
    if (!isPresent(body[name])) continue;
    if (first === undefined) first = name;
    else if (JSON.stringify(body[name]) !== JSON.stringify(body[first]))
      throw badRequest(HARDENING.aliasConflict(name, first));
  }
  return first === undefined ? undefined : body[first];
}

/** A boolean field: JSON true/false or the strings "true"/"false"; absent gives `fallback`. */
export function parseBooleanField(value: unknown, fallback: boolean, errorText: string): boolean {
  return isPresent(value) ? parseBoolean(value, errorText) : fallback;
}

/** An optional managed-wallet field; undefined means "the key's default wallet". */
export function parseOptionalWallet(value: unknown): Address | undefined {
  return isPresent(value) ? parseAddress(value, TRADE_RULES.walletInvalid) : undefined;
}

/** A JSON boolean or the strings "true"/"false" (any case, surrounding spaces ignored). */
export function parseBoolean(value: unknown, errorText: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const normalized = value.trim().toLowerCase();
    if (normalized === "true") return true;
    if (normalized === "false") return false;
  }
  throw badRequest(errorText);
}

/**
 * The `dry_run` field of an execution request (issue 19): true, false or absent (false); anything else is a
 * 400. A body that is not an object is no dry run (the endpoint answers its own 400).
 */
export function parseDryRun(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  return parseBooleanField((body as RequestBody).dry_run, false, EXECUTION.dryRunInvalid);
}

/** Whether an execution request asks for a dry run; never throws (an invalid field is the handler's 400). */
export function isDryRun(body: unknown): boolean {
  try {
    return parseDryRun(body);
  } catch {
    return false;
  }
}

/**
 * A whole number from a query string or path (a JSON number too; surrounding spaces ignored): `min` to `max`,
 * written with at most as many digits as `max`. Absent (undefined, null or "") gives undefined; anything else
 * is a 400 with `errorText`. One parser for every list, cursor and id parameter, so they agree on the edge cases.
 */
export function parseQueryInt(
  value: unknown,
  errorText: string,
  range: { min?: number; max: number },
): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const digits = String(range.max).length;
  if (!new RegExp(`^\\d{1,${digits}}$`).test(text)) throw badRequest(errorText);
  const n = Number(text);
  if (n < (range.min ?? 0) || n > range.max) throw badRequest(errorText);
  return n;
}

/**
 * Whether a path id can be one we issued (UUIDs and prefixed UUIDs): anything else cannot exist, and a NUL byte
 * or similar never reaches the database (PostgreSQL refuses it).
 */
export function isPlausibleId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
