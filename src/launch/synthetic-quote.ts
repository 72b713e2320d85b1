/**
 * The synthetic-migration quote (docs/SYNTHETIC_MIGRATION.md "Quoting it off-chain"): a v3 buy that asks
 * for more than the curve has left takes the rest of the curve at the curve's price, completes it, and
 * buys on from the reserves the migration would deposit, at the constant-product price. Both parts pay
 * the curve's fee schedule (`fees`, the rates of the curve before the buy). Pure bigint math.
 */
import {
  buyExactSolInTokensOut,
  buyTokensCost,
  ceilDiv,
  curveBuyCost,
  curveFeeParts,
  type CurveFeesBps,
  type CurveState,
} from "./curve-quote.js";
import { BPS_DENOMINATOR } from "../core/slippage.js";

/** What the pool part is priced on, besides the curve itself. */
export interface SyntheticInputs {
  /** Balance of the curve's base token account (associated_base_bonding_curve.amount). */
  readonly curveBaseBalance: bigint;
  /** Global.pool_migration_fee (SOL-paired coins pay it out of the raised quote). */
  readonly poolMigrationFee: bigint;
}

/** The reserves the would-be pool opens with right after the curve part. */
export function syntheticPoolReserves(
  curve: CurveState,
  inputs: SyntheticInputs,
): { base: bigint; quote: bigint; curveQuote: bigint } {
  const remaining = curve.realTokenReserves;
  const curveQuote = remaining > 0n ? curveBuyCost(remaining, curve) : 0n;
  return {
    base: inputs.curveBaseBalance - remaining,
    quote: curve.realQuoteReserves + curveQuote - inputs.poolMigrationFee,
    curveQuote,
  };
}

/** A v3 buy quote split into its two parts; `poolTokens` is 0 when the buy does not cross completion. */
export interface V3BuyQuote {
  readonly curveTokens: bigint;
  readonly poolTokens: bigint;
  /** Lamports each part moves, fees excluded (the curve's cost; the pool part's quote_in). */
  readonly curveQuote: bigint;
  readonly poolQuote: bigint;
  /** curveTokens + poolTokens. */
  readonly tokensOut: bigint;
  /** Lamports the buyer pays, fees included (buy_exact_quote_in_v3: at most the budget). */
  readonly totalCost: bigint;
  /** True when the buy empties the curve (its transaction emits CompleteEvent). */
  readonly completes: boolean;
}

// Net amount and fees that fit `budget` under the curve's rates (buy_exact_sol_in's own fee split).
function netOf(budget: bigint, fees: CurveFeesBps): bigint {
  const totalBps = fees.protocolFeeBps + fees.creatorFeeBps;
  let net = (budget * BPS_DENOMINATOR) / (BPS_DENOMINATOR + totalBps);
  const parts = curveFeeParts(net, fees);
  const over = net + parts.protocol + parts.creator - budget;
  if (over > 0n) net -= over;
  return net;
}

const withFees = (amount: bigint, fees: CurveFeesBps): bigint => {
  const parts = curveFeeParts(amount, fees);
  return amount + parts.protocol + parts.creator;
};

/** buy_exact_quote_in_v3(spendable): tokens of both parts; the whole budget is spent when it crosses. */
export function buyExactQuoteInV3Quote(
  spendable: bigint,
  curve: CurveState,
  fees: CurveFeesBps,
  inputs: SyntheticInputs,
): V3BuyQuote {
  const plain = buyExactSolInTokensOut(spendable, curve, fees);
  const remaining = curve.realTokenReserves;
  if (plain.tokensOut < remaining) {
    return {
      curveTokens: plain.tokensOut,
      poolTokens: 0n,
      curveQuote: plain.netSol,
      poolQuote: 0n,
      tokensOut: plain.tokensOut,
      totalCost: spendable,
      completes: false,
    };
  }
  const reserves = syntheticPoolReserves(curve, inputs);
  const curveCost = withFees(reserves.curveQuote, fees);
  const leftover = spendable - curveCost;
  const net = leftover > 0n ? netOf(leftover, fees) : 0n;
  // out = floor((in - 1) * pool_base / (pool_quote + in - 1)); nothing when even one token is out of reach.
  const poolTokens =
    net > 1n && reserves.base > 0n ? ((net - 1n) * reserves.base) / (reserves.quote + net - 1n) : 0n;
  return {
    curveTokens: remaining,
    poolTokens,
    curveQuote: reserves.curveQuote,
    poolQuote: poolTokens > 0n ? net : 0n,
    tokensOut: remaining + poolTokens,
    totalCost: poolTokens > 0n ? spendable : curveCost,
    completes: true,
  };
}

/** buy_v3(amount) past the curve: the two parts' lamports, fees excluded; null as buyV3Cost. */
export function buyV3Parts(
  amount: bigint,
  curve: CurveState,
  inputs: SyntheticInputs,
): { curveQuote: bigint; poolQuote: bigint } | null {
  const reserves = syntheticPoolReserves(curve, inputs);
  const extra = amount - curve.realTokenReserves;
  if (extra <= 0n) return { curveQuote: curveBuyCost(amount, curve), poolQuote: 0n };
  if (extra >= reserves.base) return null;
  return {
    curveQuote: reserves.curveQuote,
    poolQuote: ceilDiv(reserves.quote * extra, reserves.base - extra),
  };
}

/**
 * buy_v3(amount): lamports with fees for exactly `amount` tokens, the part past the curve priced on the
 * would-be pool; null when the pool part would take all of the pool's tokens (the program refuses: 6021).
 */
export function buyV3Cost(
  amount: bigint,
  curve: CurveState,
  fees: CurveFeesBps,
  inputs: SyntheticInputs,
): bigint | null {
  if (amount <= curve.realTokenReserves) return buyTokensCost(amount, curve, fees);
  const parts = buyV3Parts(amount, curve, inputs);
  return parts === null ? null : withFees(parts.curveQuote, fees) + withFees(parts.poolQuote, fees);
}

/**
 * The curve's base token balance as the curve's own fields imply it: create mints the whole supply to the
 * curve's account and every curve trade moves tokens in and out of it, so the account holds the supply
 * less what the curve has sold (initial real reserves less the real reserves left).
 */
export function impliedCurveBaseBalance(
  curve: CurveState & { readonly tokenTotalSupply: bigint },
  initialRealTokenReserves: bigint,
): bigint {
  return curve.tokenTotalSupply - (initialRealTokenReserves - curve.realTokenReserves);
}
