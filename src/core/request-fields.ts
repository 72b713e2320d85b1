/**
 * Field helpers every request parser shares: the body type, presence (JSON null counts as absent), alias
 * lookup, booleans and the optional managed-wallet field. Kept in core so no capability imports another's parser.
 */
import { type Address, parseAddress } from "./addresses.js";
import { badRequest, HARDENING, TRADE_RULES } from "./errors.js";

/** A JSON request body as the HTTP layer hands it over. */
export type RequestBody = Record<string, unknown>;

/** Whether a request field was sent: JSON null counts as absent. */
export const isPresent = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * The value of the first of `names` (a field and its aliases) present in `body` (JSON null counts as absent).
 * Two names sent with different values are ambiguous: a 400, never a silent pick.
 */
export function fieldOf(body: RequestBody, names: readonly string[]): unknown {
  const present = names.filter((name) => isPresent(body[name]));
  const [first, ...others] = present;
  if (first === undefined) return undefined;
  for (const other of others) {
    if (JSON.stringify(body[other]) !== JSON.stringify(body[first]))
      throw badRequest(HARDENING.aliasConflict(other, first));
  }
  return body[first];
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
