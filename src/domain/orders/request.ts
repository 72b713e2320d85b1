/**
 * POST /v1/orders: the body's rules, pure. What needs the chain (decimals, the wallet's balance for a
 * percentage size, the price now for percent levels) is resolved by `resolveSpec` once the service read it.
 */
import { parseAddress, type Address } from "../../core/addresses.js";
import {
  isPercentText,
  parseDecimal,
  parsePercent,
  parseSellPercent,
  parseSolAmount,
  parseTokenUnits,
} from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import { parseRequestFees, type FeeBounds, type RequestFees } from "../../core/fee-fields.js";
import { fieldOf, parseDryRun, type RequestBody } from "../../core/request-fields.js";
import { resolveTradeSlippage } from "../../core/slippage.js";
import { ORDER_KINDS, PRICE_DECIMALS, type Direction, type OrderAmount, type OrderKind } from "./model.js";
import { orderFieldsOf } from "./body-schema.js";
import { ORDER_RULES as R } from "./texts.js";

/** A level as the body gave it, before an entry price turns percentages into prices. */
export type LevelForm =
  | { readonly kind: "price"; readonly price: bigint }
  | { readonly kind: "percent"; readonly hundredths: bigint }
  | { readonly kind: "sol_out"; readonly lamports: bigint };

/** One requested trigger. */
export interface LegRequest {
  readonly name: "limit" | "take_profit" | "stop_loss";
  readonly direction: Direction;
  readonly form: LevelForm;
  readonly asked: Record<string, string>;
}

/** A validated order request. */
export interface OrderRequest {
  readonly kind: OrderKind;
  readonly side: "buy" | "sell";
  readonly mint: Address;
  readonly wallet: Address | null;
  readonly amount: OrderAmount;
  readonly amountText: string;
  readonly legs: readonly LegRequest[];
  readonly trailHundredths: bigint | null;
  readonly entryPrice: bigint | null;
  readonly slippageBps: bigint;
  readonly fees: RequestFees;
  readonly expiresAt: string | null;
  readonly maxRetries: number;
  readonly dryRun: boolean;
}

/** The fields any order on one mint may carry (body-schema.ts, the body's one description). */
const FIELDS: ReadonlySet<string> = new Set(ORDER_KINDS.flatMap((k) => [...orderFieldsOf(k)]));
const LEVEL_FIELDS = ["price", "percent", "sol_out"] as const;
/** Default retries of a sell that failed on chain. */
export const DEFAULT_MAX_RETRIES = 2;

const text = (v: unknown): string | undefined =>
  typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : undefined;

/** A positive price (SOL per whole token) as SOL × 10^18. */
export function parsePrice(v: unknown, field: string, invalid = R.priceInvalid(field)): bigint {
  const t = text(v);
  if (t === undefined) throw badRequest(invalid);
  const p = parseDecimal(t, PRICE_DECIMALS);
  if (p.kind !== "ok") throw badRequest(invalid);
  if (p.scaled <= 0n) throw badRequest(R.levelPositive(field));
  return p.scaled;
}

function parseLevelPercent(v: unknown, field: string): bigint {
  const t = text(v);
  if (t === undefined) throw badRequest(R.percentInvalid(field));
  const invalid = R.percentInvalid(field);
  return parsePercent(t, { maxDecimals: 2, invalid, decimals: invalid });
}

/** One leg's level from `obj` (the body itself, or a bracket's take_profit / stop_loss object). */
function parseLeg(obj: RequestBody, name: LegRequest["name"], where: string): LegRequest {
  const present = LEVEL_FIELDS.filter((f) => obj[f] !== undefined && obj[f] !== null);
  if (present.length === 0) throw badRequest(R.levelRequired(where));
  if (present.length > 1) throw badRequest(R.levelBoth(where));
  const field = present[0]!;
  const label = where === "the order" ? field : `${where}.${field}`;
  const direction: Direction = name === "stop_loss" ? "below" : "above";
  const asked = { [field]: text(obj[field]) ?? "" };
  if (field === "price")
    return { name, direction, form: { kind: "price", price: parsePrice(obj[field], label) }, asked };
  if (field === "sol_out") {
    const t = R.solOutInvalid(label);
    const lamports = parseSolAmount(obj[field], {
      type: t,
      invalid: t,
      decimals: t,
      positive: R.levelPositive(label),
      tooLarge: t,
    });
    return { name, direction, form: { kind: "sol_out", lamports }, asked };
  }
  const h = parseLevelPercent(obj[field], label);
  if (name === "take_profit") {
    if (h <= 0n) throw badRequest(R.tpPercentSign(label));
    return { name, direction, form: { kind: "percent", hundredths: h }, asked };
  }
  // A stop-loss's percent is a fall whichever sign it is written with ("-20%" or "20").
  const fall = h < 0n ? -h : h;
  if (fall === 0n || fall >= 10_000n) throw badRequest(R.slPercentRange(label));
  return { name, direction, form: { kind: "percent", hundredths: -fall }, asked };
}

function parseKind(v: unknown): OrderKind {
  if (!(ORDER_KINDS as readonly unknown[]).includes(v)) throw badRequest(R.kindInvalid);
  return v as OrderKind;
}

function parseAmount(side: "buy" | "sell", raw: unknown): { amount: OrderAmount; text: string } {
  if (side === "buy") {
    if (raw === undefined) throw badRequest(R.buyAmount);
    const t = R.buyAmount;
    const lamports = parseSolAmount(raw, { type: t, invalid: t, decimals: t, positive: t, tooLarge: t });
    return { amount: { kind: "sol", lamports }, text: String(raw) };
  }
  if (raw === undefined) return { amount: { kind: "percent", hundredths: 10_000n }, text: "100%" };
  if (isPercentText(raw))
    return { amount: { kind: "percent", hundredths: parseSellPercent(raw) }, text: raw.trim() };
  return { amount: { kind: "tokens", units: parseTokenUnits(raw, R.sellAmount) }, text: String(raw) };
}

export function parseExpiry(v: unknown, now: Date): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) throw badRequest(R.expiresInvalid);
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw badRequest(R.expiresInvalid);
  if (ms <= now.getTime()) throw badRequest(R.expiresPast);
  return new Date(ms).toISOString();
}

/** Parses and validates an order body; throws a 400 naming the rule. */
export function parseOrderRequest(body: unknown, bounds: FeeBounds, now: Date): OrderRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest(R.bodyObject);
  const b = body as RequestBody;
  for (const k of Object.keys(b)) if (!FIELDS.has(k)) throw badRequest(R.unknownField(k));
  const kind = parseKind(b.kind);
  if (b.mint === undefined) throw badRequest(R.mintRequired);
  const mint = parseAddress(b.mint, R.mintInvalid);
  let side: "buy" | "sell" = "sell";
  if (kind === "limit" || (kind === "on_migration" && b.side !== undefined)) {
    if (b.side !== "buy" && b.side !== "sell") throw badRequest(R.sideInvalid);
    side = b.side;
  } else if (b.side !== undefined && b.side !== "sell") throw badRequest(R.sideSellOnly(kind));
  const { amount, text: amountText } = parseAmount(side, b.amount);

  let legs: LegRequest[] = [];
  let trail: bigint | null = null;
  if (kind !== "bracket")
    for (const f of ["take_profit", "stop_loss"]) if (b[f] !== undefined) throw badRequest(R.bracketOnly(f));
  if (kind !== "trailing_stop" && b.trail_percent !== undefined) throw badRequest(R.trailOnly);
  if (kind === "bracket") {
    const tp = b.take_profit;
    const sl = b.stop_loss;
    const isObj = (x: unknown): x is RequestBody => typeof x === "object" && x !== null && !Array.isArray(x);
    if (!isObj(tp) || !isObj(sl)) throw badRequest(R.bracketLegs);
    for (const f of LEVEL_FIELDS) if (b[f] !== undefined) throw badRequest(R.bracketLegs);
    legs = [parseLeg(tp, "take_profit", "take_profit"), parseLeg(sl, "stop_loss", "stop_loss")];
  } else if (kind === "trailing_stop") {
    const t = text(b.trail_percent);
    if (t === undefined) throw badRequest(R.trailPercent);
    trail = parsePercent(t, { maxDecimals: 2, invalid: R.trailPercent, decimals: R.trailPercent });
    if (trail <= 0n || trail >= 10_000n) throw badRequest(R.trailPercent);
  } else if (kind === "on_migration") {
    if (LEVEL_FIELDS.some((f) => b[f] !== undefined)) throw badRequest(R.migrationNoLevel);
  } else if (kind === "limit") {
    if (b.percent !== undefined || b.sol_out !== undefined) {
      if (b.price !== undefined) throw badRequest(R.levelBoth("the order"));
      throw badRequest(R.limitPriceOnly);
    }
    // A limit buy fires when the price falls to its level, a limit sell when it rises to it.
    legs = [{ ...parseLeg(b, "limit", "the order"), direction: side === "buy" ? "below" : "above" }];
  } else legs = [parseLeg(b, kind, "the order")];

  const entryPrice =
    b.entry_price === undefined ? null : parsePrice(b.entry_price, "entry_price", R.entryInvalid);
  const walletValue = fieldOf(b, ["wallet"]);
  let maxRetries = 2;
  if (b.max_retries !== undefined) {
    if (
      typeof b.max_retries !== "number" ||
      !Number.isInteger(b.max_retries) ||
      b.max_retries < 0 ||
      b.max_retries > 10
    )
      throw badRequest(R.maxRetriesInvalid);
    maxRetries = b.max_retries;
  }
  return {
    kind,
    side,
    mint,
    wallet: walletValue === undefined ? null : parseAddress(walletValue, R.walletInvalid),
    amount,
    amountText,
    legs,
    trailHundredths: trail,
    entryPrice,
    slippageBps: resolveTradeSlippage({ slippage: b.slippage, slippage_bps: b.slippage_bps }),
    fees: parseRequestFees(b, bounds),
    expiresAt: parseExpiry(b.expires_at, now),
    maxRetries,
    dryRun: parseDryRun(b),
  };
}
