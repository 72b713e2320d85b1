/**
 * The snipe order's rules, pure: the body (which new tokens to buy, how much per token, the hourly cap) and the
 * match of one create event (creator list, name/symbol glob, mayhem and cashback flags, the initial buy's size).
 */
import { parseAddress, type Address } from "../../core/addresses.js";
import { parseSolAmount } from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import { parseRequestFees, type FeeBounds, type RequestFees } from "../../core/fee-fields.js";
import { fieldOf, parseDryRun, type RequestBody } from "../../core/request-fields.js";
import { resolveTradeSlippage } from "../../core/slippage.js";
import type { CreatedNotice } from "../watch/created-mints.js";
import { orderFieldsOf, SNIPE_RULE_FIELDS as RULE_FIELDS } from "./body-schema.js";
import { parseExpiry } from "./request.js";
import { SNIPE_RULES as S } from "./snipe-texts.js";
import { ORDER_RULES as R } from "./texts.js";

/** What a snipe buys: the rule a create event must match, the SOL per token and the hourly cap. */
export interface SnipeRule {
  readonly creators: readonly string[] | null;
  /** Case-insensitive globs (`*` any run, `?` one character). */
  readonly namePattern: string | null;
  readonly symbolPattern: string | null;
  readonly mayhem: boolean | null;
  readonly cashback: boolean | null;
  /** Bounds of the SOL the creation transaction itself bought (the dev buy), lamports. */
  readonly minInitialBuyLamports: bigint | null;
  readonly maxInitialBuyLamports: bigint | null;
  /** At most this many buys in any rolling hour (null: no cap). */
  readonly maxPerHour: number | null;
}

/** A validated snipe request. */
export interface SnipeRequest {
  readonly rule: SnipeRule;
  /** SOL each matching token is bought for: the order's at-most per token (it buys a token once). */
  readonly lamports: bigint;
  readonly amountText: string;
  readonly wallet: Address | null;
  readonly slippageBps: bigint;
  readonly fees: RequestFees;
  readonly expiresAt: string | null;
  readonly dryRun: boolean;
}

/** The fields a snipe body may carry (body-schema.ts, the body's one description). */
const FIELDS = orderFieldsOf("snipe");
const MAX_CREATORS = 100;
const MAX_PATTERN = 64;

function sol(v: unknown, text: string): bigint {
  return parseSolAmount(v, { type: text, invalid: text, decimals: text, positive: text, tooLarge: text });
}

function pattern(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length === 0 || v.length > MAX_PATTERN) throw badRequest(S.pattern(field));
  return v;
}

function flag(v: unknown, field: string): boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "boolean") throw badRequest(S.flag(field));
  return v;
}

/** Parses a snipe body; throws a 400 naming the rule. */
export function parseSnipeRequest(b: RequestBody, bounds: FeeBounds, now: Date): SnipeRequest {
  for (const k of Object.keys(b)) if (!FIELDS.has(k)) throw badRequest(S.field(k));
  if (b.side !== undefined && b.side !== "buy") throw badRequest(S.buyOnly);
  if (b.amount === undefined) throw badRequest(S.amount);
  const lamports = sol(b.amount, S.amount);
  if (!RULE_FIELDS.some((f) => b[f] !== undefined && b[f] !== null)) throw badRequest(S.ruleRequired);
  let creators: string[] | null = null;
  if (b.creators !== undefined && b.creators !== null) {
    if (!Array.isArray(b.creators) || b.creators.length === 0 || b.creators.length > MAX_CREATORS)
      throw badRequest(S.creators);
    creators = b.creators.map((c) => parseAddress(c, S.creators));
  }
  const min =
    b.min_initial_buy === undefined ? null : sol(b.min_initial_buy, S.initialBuy("min_initial_buy"));
  const max =
    b.max_initial_buy === undefined ? null : sol(b.max_initial_buy, S.initialBuy("max_initial_buy"));
  if (min !== null && max !== null && min > max) throw badRequest(S.initialBounds);
  let maxPerHour: number | null = null;
  if (b.max_per_hour !== undefined) {
    const n = b.max_per_hour;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 1000) throw badRequest(S.perHour);
    maxPerHour = n;
  }
  const wallet = fieldOf(b, ["wallet"]);
  return {
    rule: {
      creators,
      namePattern: pattern(b.name_pattern, "name_pattern"),
      symbolPattern: pattern(b.symbol_pattern, "symbol_pattern"),
      mayhem: flag(b.mayhem, "mayhem"),
      cashback: flag(b.cashback, "cashback"),
      minInitialBuyLamports: min,
      maxInitialBuyLamports: max,
      maxPerHour,
    },
    lamports,
    amountText: String(b.amount).trim(),
    wallet: wallet === undefined ? null : parseAddress(wallet, R.walletInvalid),
    slippageBps: resolveTradeSlippage({ slippage: b.slippage, slippage_bps: b.slippage_bps }),
    fees: parseRequestFees(b, bounds),
    expiresAt: parseExpiry(b.expires_at, now),
    dryRun: parseDryRun(b),
  };
}

/** Whether `text` matches the glob `pat` (case-insensitive, `*` any run, `?` one character). */
export function globMatch(pat: string, text: string): boolean {
  const re = pat
    .toLowerCase()
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${re}$`, "s").test(text.toLowerCase());
}

/** Whether a created mint matches the rule (every given condition holds). */
export function snipeMatches(rule: SnipeRule, n: CreatedNotice): boolean {
  const e = n.event;
  if (rule.creators !== null && !rule.creators.includes(e.creator)) return false;
  if (rule.namePattern !== null && !globMatch(rule.namePattern, e.name)) return false;
  if (rule.symbolPattern !== null && !globMatch(rule.symbolPattern, e.symbol)) return false;
  if (rule.mayhem !== null && rule.mayhem !== e.isMayhemMode) return false;
  if (rule.cashback !== null && rule.cashback !== e.isCashbackEnabled) return false;
  if (rule.minInitialBuyLamports !== null && n.initialBuyLamports < rule.minInitialBuyLamports) return false;
  if (rule.maxInitialBuyLamports !== null && n.initialBuyLamports > rule.maxInitialBuyLamports) return false;
  return true;
}
