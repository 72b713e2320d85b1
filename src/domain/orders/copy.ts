/**
 * The copy order's rules, pure: the body (which wallets to follow, how a copied trade is sized, its caps, delay
 * and price bound) and the sizing of one followed trade (a buy's SOL, a sell's share or units) and the price
 * move since it (SOL per token from the reserves after their trade against the reserves now).
 */
import { orderFieldsOf } from "./body-schema.js";
import { parseAddress, type Address } from "../../core/addresses.js";
import { formatUnits, parseDecimal, parsePercent, parseSolAmount } from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import { parseRequestFees, type FeeBounds, type RequestFees } from "../../core/fee-fields.js";
import { fieldOf, parseDryRun, type RequestBody } from "../../core/request-fields.js";
import { resolveTradeSlippage } from "../../core/slippage.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import { COPY_RULES as C } from "./copy-texts.js";
import { parseExpiry } from "./request.js";
import { ORDER_RULES as R } from "./texts.js";

/** How a copied buy is sized: fixed SOL, or their SOL × ratio (millionths). */
export type CopySizing =
  | { readonly kind: "sol"; readonly lamports: bigint }
  | { readonly kind: "ratio"; readonly millionths: bigint }
  | { readonly kind: "none" };

/** A copy order's stored parameters. */
export interface CopySpec {
  readonly kind: "copy";
  readonly follow: readonly string[];
  readonly sizing: CopySizing;
  /** The request's text of the amount or ratio ("" for a sells_only order without either). */
  readonly sizingText: string;
  /** percent: the share of our position they sold of theirs; ratio: their token units × ratio. */
  readonly sellSizing: "percent" | "ratio";
  readonly sides: "both" | "buys" | "sells";
  readonly maxPerTokenLamports: bigint | null;
  readonly maxPerDayLamports: bigint | null;
  readonly delayMs: number;
  /** Hundredths of a percent the price may have moved since their trade (null: no bound). */
  readonly maxMoveHundredths: bigint | null;
  readonly slippageBps: bigint;
  readonly priorityFeeLamports: bigint | null;
  readonly tipLamports: bigint | null;
}

/** A validated copy request. */
export interface CopyRequest {
  readonly spec: CopySpec;
  readonly wallet: Address | null;
  readonly fees: RequestFees;
  readonly expiresAt: string | null;
  readonly dryRun: boolean;
}

const FIELDS = orderFieldsOf("copy");
/** Wallets one copy order follows at most. */
export const MAX_FOLLOW = 20;
const MAX_DELAY_MS = 60_000;
const RATIO_DECIMALS = 6;
const MILLION = 1_000_000n;

function sol(v: unknown, text: string): bigint {
  return parseSolAmount(v, { type: text, invalid: text, decimals: text, positive: text, tooLarge: text });
}

function flag(v: unknown, field: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw badRequest(C.flag(field));
  return v;
}

function parseFollow(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_FOLLOW) throw badRequest(C.follow);
  const list = v.map((a) => parseAddress(a, C.follow));
  if (new Set(list).size !== list.length) throw badRequest(C.follow);
  return list;
}

function parseRatio(v: unknown): bigint {
  const t = typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
  if (t === undefined) throw badRequest(C.ratio);
  const p = parseDecimal(t, RATIO_DECIMALS);
  if (p.kind !== "ok" || p.scaled <= 0n || p.scaled > 100n * MILLION) throw badRequest(C.ratio);
  return p.scaled;
}

function parseMaxMove(v: unknown): bigint | null {
  if (v === undefined || v === null) return null;
  const t = typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
  if (t === undefined) throw badRequest(C.maxMove);
  const h = parsePercent(t, { maxDecimals: 2, invalid: C.maxMove, decimals: C.maxMove });
  if (h <= 0n || h > 100_000n) throw badRequest(C.maxMove);
  return h;
}

/** Parses a copy body; throws a 400 naming the rule. */
export function parseCopyRequest(b: RequestBody, bounds: FeeBounds, now: Date): CopyRequest {
  for (const k of Object.keys(b))
    if (!FIELDS.has(k) && k !== "mint" && k !== "side") throw badRequest(C.field(k));
  if (b.mint !== undefined) throw badRequest(C.mintGiven);
  if (b.side !== undefined) throw badRequest(C.noSide);
  const follow = parseFollow(b.follow);
  const buysOnly = flag(b.buys_only, "buys_only");
  const sellsOnly = flag(b.sells_only, "sells_only");
  if (buysOnly && sellsOnly) throw badRequest(C.sidesBoth);
  const hasAmount = b.amount !== undefined && b.amount !== null;
  const hasRatio = b.ratio !== undefined && b.ratio !== null;
  if (hasAmount && hasRatio) throw badRequest(C.sizeBoth);
  if (hasAmount && sellsOnly) throw badRequest(C.amountSellsOnly);
  let sizing: CopySizing = { kind: "none" };
  if (hasAmount) sizing = { kind: "sol", lamports: sol(b.amount, C.amount) };
  else if (hasRatio) sizing = { kind: "ratio", millionths: parseRatio(b.ratio) };
  else if (!sellsOnly) throw badRequest(C.sizeRequired);
  let sellSizing: "percent" | "ratio" = "percent";
  if (b.sell_sizing !== undefined) {
    if (b.sell_sizing !== "percent" && b.sell_sizing !== "ratio") throw badRequest(C.sellSizing);
    if (b.sell_sizing === "ratio" && sizing.kind !== "ratio") throw badRequest(C.sellRatioNeedsRatio);
    sellSizing = b.sell_sizing;
  }
  let delayMs = 0;
  if (b.delay_ms !== undefined) {
    const d = b.delay_ms;
    if (typeof d !== "number" || !Number.isInteger(d) || d < 0 || d > MAX_DELAY_MS) throw badRequest(C.delay);
    delayMs = d;
  }
  const cap = (field: string): bigint | null =>
    b[field] === undefined || b[field] === null ? null : sol(b[field], C.cap(field));
  const wallet = fieldOf(b, ["wallet"]);
  const fees = parseRequestFees(b, bounds);
  return {
    spec: {
      kind: "copy",
      follow,
      sizing,
      sizingText: hasAmount || hasRatio ? String(hasAmount ? b.amount : b.ratio).trim() : "",
      sellSizing,
      sides: buysOnly ? "buys" : sellsOnly ? "sells" : "both",
      maxPerTokenLamports: cap("max_per_token"),
      maxPerDayLamports: cap("max_per_day"),
      delayMs,
      maxMoveHundredths: parseMaxMove(b.max_price_move),
      slippageBps: resolveTradeSlippage({ slippage: b.slippage, slippage_bps: b.slippage_bps }),
      priorityFeeLamports: fees.priorityFeeLamports ?? null,
      tipLamports: fees.tipLamports ?? null,
    },
    wallet: wallet === undefined ? null : parseAddress(wallet, R.walletInvalid),
    fees,
    expiresAt: parseExpiry(b.expires_at, now),
    dryRun: parseDryRun(b),
  };
}

/** Whether the order copies trades of `side`. */
export function copiesSide(spec: CopySpec, side: "buy" | "sell"): boolean {
  return spec.sides === "both" || (spec.sides === "buys") === (side === "buy");
}

/** The SOL of a copied buy before caps: the fixed amount, or their SOL × ratio (0 when the order has neither). */
export function copyBuyLamports(spec: CopySpec, theirLamports: bigint): bigint {
  if (spec.sizing.kind === "sol") return spec.sizing.lamports;
  if (spec.sizing.kind === "ratio") return (theirLamports * spec.sizing.millionths) / MILLION;
  return 0n;
}

/**
 * The amount text of a copied sell, or null when there is nothing to sell: percent sizing sells the share of
 * our balance they sold of theirs (`sold` of `sold + theirAfter`, at least 0.01 %), ratio sizing their units ×
 * ratio (all of ours when that is more).
 */
export function copySellAmount(
  spec: CopySpec,
  ourBalance: bigint,
  sold: bigint,
  theirAfter: bigint | null,
): string | null {
  if (ourBalance <= 0n || sold <= 0n) return null;
  if (spec.sellSizing === "ratio" && spec.sizing.kind === "ratio") {
    const units = (sold * spec.sizing.millionths) / MILLION;
    if (units <= 0n) return null;
    return units >= ourBalance ? "100%" : units.toString();
  }
  const total = sold + (theirAfter ?? 0n);
  let h = (sold * 10_000n) / total;
  if (h < 1n) h = 1n;
  return h >= 10_000n ? "100%" : `${formatUnits(h, 2).replace(/\.?0+$/, "")}%`;
}

/** SOL per token as reserves give it: quote and base reserves. */
export interface Reserves {
  readonly quote: bigint;
  readonly base: bigint;
}

/** The price-defining reserves of a trade read (the curve's virtual reserves, or the pool's vaults). */
export function reservesOf(read: TradeRead): Reserves {
  return read.venue === "bonding_curve"
    ? { quote: read.curve.virtualQuoteReserves, base: read.curve.virtualTokenReserves }
    : { quote: read.poolReserves.quote, base: read.poolReserves.base };
}

/** How far the price moved from `then` to `now`, in hundredths of a percent, either way (rounded up). */
export function priceMoveHundredths(then: Reserves, now: Reserves): bigint {
  if (then.base <= 0n || now.base <= 0n || then.quote <= 0n) return 0n;
  // (q1/b1) / (q0/b0) - 1 = (q1·b0 - q0·b1) / (q0·b1)
  const num = now.quote * then.base - then.quote * now.base;
  const den = then.quote * now.base;
  const abs = num < 0n ? -num : num;
  return (abs * 10_000n + den - 1n) / den;
}

/** The ratio as text (for the view). */
export function ratioText(millionths: bigint): string {
  return formatUnits(millionths, RATIO_DECIMALS).replace(/\.?0+$/, "");
}
