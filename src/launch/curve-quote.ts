/**
 * Bonding-curve quote math in bigint, exactly as pump-sdk 2.0.0 and the program compute it (reference
 * launch-programs.md B.1 and D.1–D.3). SOL-quoted curves only: that is the only quote the service trades.
 */
import { BPS_DENOMINATOR } from "../core/slippage.js";

/** pump-sdk's ONE_BILLION_SUPPLY: the market-cap basis of every non-mayhem curve. */
export const ONE_BILLION_SUPPLY = 1_000_000_000_000_000n;

/** Fee rates of one schedule entry (lp is only charged by the swap program). */
export interface FeeRates {
  readonly lpFeeBps: bigint;
  readonly protocolFeeBps: bigint;
  readonly creatorFeeBps: bigint;
}

/** One market-cap tier of a FeeConfig: `fees` apply from `marketCapThreshold` lamports upwards. */
export interface FeeTier {
  readonly marketCapThreshold: bigint;
  readonly fees: FeeRates;
}

/** The curve fields the quotes read. */
export interface CurveState {
  readonly virtualTokenReserves: bigint;
  readonly virtualQuoteReserves: bigint;
  readonly realTokenReserves: bigint;
  readonly realQuoteReserves: bigint;
}

/** The rates a curve trade is charged; `creatorFeeBps` is already 0 when the curve has no creator. */
export interface CurveFeesBps {
  readonly protocolFeeBps: bigint;
  readonly creatorFeeBps: bigint;
}

/** Inputs of computeCurveFeesBps: the curve, its mint supply, and the Global / FeeConfig rates. */
export interface CurveFeeInputs {
  /** FeeConfig.feeTiers, or null when there is no FeeConfig (then the Global rates apply). */
  readonly feeTiers: readonly FeeTier[] | null;
  /** Global.feeBasisPoints. */
  readonly globalProtocolFeeBps: bigint;
  /** Global.creatorFeeBasisPoints. */
  readonly globalCreatorFeeBps: bigint;
  /** Global.creatorFeeConfigurable (absent = false). */
  readonly creatorFeeConfigurable?: boolean;
  /** BondingCurve.creatorFeeBps (absent or 0 = the schedule's rate). */
  readonly curveCreatorFeeBps?: bigint;
  /** Live mint supply; only used for mayhem curves (others use 1e15, as pump-sdk's getFee does). */
  readonly mintSupply: bigint;
  readonly virtualQuoteReserves: bigint;
  readonly virtualTokenReserves: bigint;
  /** BondingCurve.creator != default (or a curve about to be created). */
  readonly hasCreator: boolean;
  readonly isMayhemMode: boolean;
}

/** ceil(amount × bps / 10000): how both SDKs and both programs charge each fee. */
export function feeAmount(amount: bigint, bps: bigint): bigint {
  return ceilDiv(amount * bps, BPS_DENOMINATOR);
}

/** ceil(a / b) for non-negative a and positive b. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** pump-fees calculate_fee_tier: tier 0 below its threshold, else the last tier whose threshold is ≤ marketCap. */
export function calculateFeeTier(tiers: readonly FeeTier[], marketCap: bigint): FeeRates {
  const first = tiers[0];
  if (first === undefined) throw new Error("fee tiers cannot be empty");
  if (marketCap < first.marketCapThreshold) return first.fees;
  for (let i = tiers.length - 1; i >= 0; i -= 1) {
    const tier = tiers[i];
    if (tier !== undefined && marketCap >= tier.marketCapThreshold) return tier.fees;
  }
  return first.fees;
}

/** Fee rates of a bonding-curve trade (reference B.1.1), creator rate zeroed when the curve has no creator. */
export function computeCurveFeesBps(input: CurveFeeInputs): CurveFeesBps {
  let protocolFeeBps = input.globalProtocolFeeBps;
  let creatorFeeBps = input.globalCreatorFeeBps;
  if (input.feeTiers !== null && input.virtualTokenReserves > 0n) {
    const supply = input.isMayhemMode ? input.mintSupply : ONE_BILLION_SUPPLY;
    const marketCap = (input.virtualQuoteReserves * supply) / input.virtualTokenReserves;
    const tier = calculateFeeTier(input.feeTiers, marketCap);
    protocolFeeBps = tier.protocolFeeBps;
    creatorFeeBps = tier.creatorFeeBps;
  }
  if (input.creatorFeeConfigurable === true && (input.curveCreatorFeeBps ?? 0n) > 0n) {
    creatorFeeBps = input.curveCreatorFeeBps ?? 0n;
  }
  return { protocolFeeBps, creatorFeeBps: input.hasCreator ? creatorFeeBps : 0n };
}

/** The two fees a curve trade pays on `amount` (the lamports the curve itself moves), in lamports. */
export interface CurveFeeParts {
  /** Protocol fee (the program splits a buyback share off it; the trader pays it once). */
  readonly protocol: bigint;
  /** Creator fee (0 without a creator; credited to the trader's cashback on cashback coins). */
  readonly creator: bigint;
}

/** Protocol and creator fee on `amount`, each rounded up on its own (two ceilings, as on chain). */
export function curveFeeParts(amount: bigint, fees: CurveFeesBps): CurveFeeParts {
  return { protocol: feeAmount(amount, fees.protocolFeeBps), creator: feeAmount(amount, fees.creatorFeeBps) };
}

/** Protocol plus creator fee on `amount`. */
function curveFees(amount: bigint, fees: CurveFeesBps): bigint {
  const parts = curveFeeParts(amount, fees);
  return parts.protocol + parts.creator;
}

/** Result of buy_exact_sol_in: tokens the program hands out and the lamports that reach the curve. */
export interface ExactSolInQuote {
  readonly tokensOut: bigint;
  /** Lamports credited to the curve (net of fees). */
  readonly netSol: bigint;
  /** Protocol + creator fees paid on netSol. */
  readonly fees: bigint;
}

/**
 * Tokens out of `buy_exact_sol_in(spendable)` by the program's own formula (IDL docs, reference B.1.3).
 * Not capped at realTokenReserves: callers decide what to do with a buy that would empty the curve.
 */
export function buyExactSolInTokensOut(
  spendable: bigint,
  curve: CurveState,
  fees: CurveFeesBps,
): ExactSolInQuote {
  const totalBps = fees.protocolFeeBps + fees.creatorFeeBps;
  let netSol = (spendable * BPS_DENOMINATOR) / (BPS_DENOMINATOR + totalBps);
  let paid = curveFees(netSol, fees);
  if (netSol + paid > spendable) {
    netSol -= netSol + paid - spendable;
    paid = curveFees(netSol, fees);
  }
  if (netSol <= 1n || curve.virtualTokenReserves === 0n) return { tokensOut: 0n, netSol, fees: paid };
  const input = netSol - 1n;
  const tokensOut = (input * curve.virtualTokenReserves) / (curve.virtualQuoteReserves + input);
  return { tokensOut, netSol, fees: paid };
}

/** Lamports the curve itself takes for `amount` tokens: floor(n × vQ / (vT − n)) + 1 (reference D.1). */
export function curveBuyCost(amount: bigint, curve: CurveState): bigint {
  return (amount * curve.virtualQuoteReserves) / (curve.virtualTokenReserves - amount) + 1n;
}

/**
 * pump-sdk getBuySolAmountFromTokenAmount: lamports (curve cost + fees) to buy exactly `amount` tokens;
 * the amount is capped at realTokenReserves like the SDK does; 0 for amount 0 or a migrated curve.
 */
export function buyTokensCost(amount: bigint, curve: CurveState, fees: CurveFeesBps): bigint {
  if (amount === 0n || curve.virtualTokenReserves === 0n) return 0n;
  const n = amount < curve.realTokenReserves ? amount : curve.realTokenReserves;
  const cost = curveBuyCost(n, curve);
  return cost + curveFees(cost, fees);
}

/**
 * pump-sdk getSellSolAmountFromTokenAmount: lamports the seller receives after fees; 0 for amount 0 or a
 * migrated curve. Can be negative for dust amounts (fees round up), exactly as the SDK returns it.
 */
export function sellSolOut(amount: bigint, curve: CurveState, fees: CurveFeesBps): bigint {
  if (amount === 0n || curve.virtualTokenReserves === 0n) return 0n;
  const gross = curveSellGross(amount, curve);
  return gross - curveFees(gross, fees);
}

/** Lamports that leave the curve for a sell of `amount` tokens, fees included: floor(n × vQ / (vT + n)) (D.3). */
export function curveSellGross(amount: bigint, curve: CurveState): bigint {
  return (amount * curve.virtualQuoteReserves) / (curve.virtualTokenReserves + amount);
}

/** pump-sdk getBuyTokenAmountFromSolAmount (an estimate, ≥ the on-chain buy_exact_sol_in result). */
export function buyTokensEstimate(amount: bigint, curve: CurveState, fees: CurveFeesBps): bigint {
  if (amount === 0n || curve.virtualTokenReserves === 0n) return 0n;
  const input =
    ((amount - 1n) * BPS_DENOMINATOR) / (BPS_DENOMINATOR + fees.protocolFeeBps + fees.creatorFeeBps);
  const tokens = (input * curve.virtualTokenReserves) / (curve.virtualQuoteReserves + input);
  return tokens < curve.realTokenReserves ? tokens : curve.realTokenReserves;
}

/**
 * The curve after a buy of `tokens` that credited `solIn` lamports to it (reference D.1/D.2): for `buy` that
 * is curveBuyCost(tokens), for buy_exact_sol_in the netSol of the quote. Fees leave the curve untouched.
 */
export function advanceCurveAfterBuy<C extends CurveState>(curve: C, tokens: bigint, solIn: bigint): C {
  return {
    ...curve,
    virtualTokenReserves: curve.virtualTokenReserves - tokens,
    realTokenReserves: curve.realTokenReserves - tokens,
    virtualQuoteReserves: curve.virtualQuoteReserves + solIn,
    realQuoteReserves: curve.realQuoteReserves + solIn,
  };
}
