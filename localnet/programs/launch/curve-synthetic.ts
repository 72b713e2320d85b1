/**
 * Pure arithmetic of the October 2026 v3 buys (docs/SYNTHETIC_MIGRATION.md): the buy that empties a
 * curve takes what is left at the curve's price, then continues against the pool the migration would
 * open (all tokens still in the curve's token account, all quote raised minus the migration fee) at
 * constant-product price. Both parts pay the curve's fee rates, each with its own rounding.
 */
import {
  buybackShare,
  CurveRuleError,
  feeOf,
  quoteBuyExactSolIn,
  quoteBuyExactTokens,
  type TradeAmounts,
} from "./curve-math.js";
import type { Curve } from "./layouts.js";

const BPS = 10_000n;
const U64_MAX = (1n << 64n) - 1n;

/** Fee rates of one trade. */
export interface Bps {
  protocolBps: bigint;
  creatorBps: bigint;
}

/** The pool part of a synthetic migration. */
export interface PoolPart {
  baseOut: bigint;
  /** Quote the tokens cost (reserves move by this), fees excluded. */
  quoteIn: bigint;
  protocolFee: bigint;
  creatorFee: bigint;
  buybackFee: bigint;
  poolBaseBefore: bigint;
  poolQuoteBefore: bigint;
}

/** A v3 buy: the curve part, and the pool part when the buy crossed completion. */
export interface V3Buy {
  curve: TradeAmounts;
  pool: PoolPart | null;
}

/** Reserves the migration would deposit right after the curve part (SOL-paired: minus the migration fee). */
export function wouldBePool(
  curve: Curve,
  curveTokenBalance: bigint,
  curvePart: TradeAmounts,
  migrationFee: bigint,
): { base: bigint; quote: bigint } {
  return {
    base: curveTokenBalance - curvePart.tokens,
    quote: curve.realQuoteReserves + curvePart.curveLamports - migrationFee,
  };
}

/** Net of a budget after fees (steps 1–3 of the IDL's buy_exact_sol_in formula). */
export function netOfBudget(spendable: bigint, bps: Bps): bigint {
  let net = (spendable * BPS) / (BPS + bps.protocolBps + bps.creatorBps);
  const fees = feeOf(net, bps.protocolBps) + feeOf(net, bps.creatorBps);
  if (net + fees > spendable) net -= net + fees - spendable;
  return net;
}

function poolPart(
  pool: { base: bigint; quote: bigint },
  baseOut: bigint,
  quoteIn: bigint,
  bps: Bps,
  buybackBps: bigint,
): PoolPart {
  const protocolFee = feeOf(quoteIn, bps.protocolBps);
  return {
    baseOut,
    quoteIn,
    protocolFee,
    creatorFee: feeOf(quoteIn, bps.creatorBps),
    buybackFee: buybackShare(protocolFee, buybackBps),
    poolBaseBefore: pool.base,
    poolQuoteBefore: pool.quote,
  };
}

/** Total the buyer pays for a v3 buy (both parts, fees included). */
export function v3BuyTotal(b: V3Buy): bigint {
  const c = b.curve.curveLamports + b.curve.protocolFee + b.curve.creatorFee;
  const p = b.pool ? b.pool.quoteIn + b.pool.protocolFee + b.pool.creatorFee : 0n;
  return c + p;
}

/** Tokens a v3 buy delivers (both parts). */
export function v3BuyTokens(b: V3Buy): bigint {
  return b.curve.tokens + (b.pool?.baseOut ?? 0n);
}

/** Context a v3 buy needs beyond the curve: the curve's token balance, the migration fee, mayhem switch. */
export interface V3Context {
  curveTokenBalance: bigint;
  migrationFee: bigint;
  buybackBps: bigint;
  /** Mayhem coins get no synthetic migration; `partialFill` then decides. */
  mayhem: boolean;
  partialFill: boolean;
}

/** `buy_v3(amount, max_sol_cost)`. */
export function quoteBuyV3(curve: Curve, amount: bigint, maxSolCost: bigint, bps: Bps, c: V3Context): V3Buy {
  if (amount === 0n) throw new CurveRuleError(6020, "buy zero amount");
  const remaining = curve.realTokenReserves;
  if (amount <= remaining)
    return { curve: quoteBuyExactTokens(curve, amount, maxSolCost, bps, c.buybackBps), pool: null };
  if (c.mayhem) {
    if (!c.partialFill) throw new CurveRuleError(6021, "not enough tokens to buy");
    return { curve: quoteBuyExactTokens(curve, remaining, maxSolCost, bps, c.buybackBps), pool: null };
  }
  const curvePart = quoteBuyExactTokens(curve, remaining, U64_MAX, bps, c.buybackBps);
  const pool = wouldBePool(curve, c.curveTokenBalance, curvePart, c.migrationFee);
  const extra = amount - remaining;
  if (extra >= pool.base) throw new CurveRuleError(6021, "not enough tokens to buy");
  const quoteIn = (pool.quote * extra + (pool.base - extra) - 1n) / (pool.base - extra);
  const buy = { curve: curvePart, pool: poolPart(pool, extra, quoteIn, bps, c.buybackBps) };
  if (v3BuyTotal(buy) > maxSolCost) throw new CurveRuleError(6002, "too much SOL required");
  return buy;
}

/** `buy_exact_quote_in_v3(spendable_quote_in, min_tokens_out)`. */
export function quoteBuyExactQuoteInV3(
  curve: Curve,
  spendable: bigint,
  minTokensOut: bigint,
  bps: Bps,
  c: V3Context,
): V3Buy {
  if (spendable === 0n) throw new CurveRuleError(6020, "buy zero amount");
  const remaining = curve.realTokenReserves;
  const net = netOfBudget(spendable, bps);
  const tokens =
    net > 1n ? ((net - 1n) * curve.virtualTokenReserves) / (curve.virtualQuoteReserves + net - 1n) : 0n;
  if (tokens <= remaining)
    return { curve: quoteBuyExactSolIn(curve, spendable, minTokensOut, bps, c.buybackBps), pool: null };
  if (c.mayhem) {
    if (!c.partialFill) throw new CurveRuleError(6021, "not enough tokens to buy");
    // Spends up to what the curve has left; min_tokens_out is skipped (TRADE_V3.md).
    return { curve: quoteBuyExactTokens(curve, remaining, spendable, bps, c.buybackBps), pool: null };
  }
  const curvePart = quoteBuyExactTokens(curve, remaining, spendable, bps, c.buybackBps);
  const left = spendable - (curvePart.curveLamports + curvePart.protocolFee + curvePart.creatorFee);
  const pool = wouldBePool(curve, c.curveTokenBalance, curvePart, c.migrationFee);
  const legNet = netOfBudget(left, bps);
  const out = legNet > 1n ? ((legNet - 1n) * pool.base) / (pool.quote + legNet - 1n) : 0n;
  // A leftover that cannot buy one token stays with the buyer; the buy stops at the completed curve.
  const buy: V3Buy = {
    curve: curvePart,
    pool: out > 0n ? poolPart(pool, out, legNet, bps, c.buybackBps) : null,
  };
  if (v3BuyTokens(buy) < minTokensOut) throw new CurveRuleError(6042, "slippage: below min tokens out");
  return buy;
}
