/**
 * Pure bonding-curve arithmetic as the program applies it (reference B.1, B.1.3, D.1–D.3). All bigint;
 * every division floors unless named ceil.
 */
import { PublicKey } from "@solana/web3.js";
import type { Curve, FeeConfigState, FeeRates, GlobalState } from "./layouts.js";

const BPS = 10_000n;
/** Supply the fee tiers use for non-mayhem coins (pump-sdk ONE_BILLION_SUPPLY). */
export const ONE_BILLION_SUPPLY = 1_000_000_000_000_000n;

/** Error a curve rule raises: the program's custom error code. */
export class CurveRuleError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "CurveRuleError";
  }
}

/** ceil(a / b) for non-negative a, positive b. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** A fee of `bps` on `amount`, rounded up (both SDKs and the program). */
export function feeOf(amount: bigint, bps: bigint): bigint {
  return ceilDiv(amount * bps, BPS);
}

/** SOL-like quote mints pump-fees charges `feeTiers` for. */
const SOL_LIKE = [
  PublicKey.default.toBase58(),
  "So11111111111111111111111111111111111111112",
  "9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP",
];

/** pump-fees calculate_fee_tier: below tier 0 → tier 0, else the last tier whose threshold is reached. */
function feeTierFor(tiers: FeeConfigState["feeTiers"], marketCap: bigint): FeeRates {
  const first = tiers[0];
  if (!first) throw new Error("fee tiers cannot be empty");
  if (marketCap < first.marketCapLamportsThreshold) return first.fees;
  for (let i = tiers.length - 1; i >= 0; i--) {
    const t = tiers[i]!;
    if (marketCap >= t.marketCapLamportsThreshold) return t.fees;
  }
  return first.fees;
}

/** Fee rates a trade on `curve` pays, from the pre-trade reserves (B.1.1). Creator bps are 0 without a creator. */
export function curveFeeBps(
  curve: Curve,
  global: GlobalState,
  feeConfig: FeeConfigState,
  mintSupply: bigint,
): { protocolBps: bigint; creatorBps: bigint } {
  if (curve.virtualTokenReserves === 0n) throw new CurveRuleError(6026, "division by zero");
  const supply = curve.isMayhemMode ? mintSupply : ONE_BILLION_SUPPLY;
  const marketCap = (curve.virtualQuoteReserves * supply) / curve.virtualTokenReserves;
  let rates: FeeRates;
  if (SOL_LIKE.includes(curve.quoteMint.toBase58())) rates = feeTierFor(feeConfig.feeTiers, marketCap);
  else rates = feeConfig.flatFees;
  let creatorBps = rates.creatorFeeBps;
  if (global.creatorFeeConfigurable && curve.creatorFeeBps > 0n) creatorBps = curve.creatorFeeBps;
  if (curve.creator.equals(PublicKey.default)) creatorBps = 0n;
  return { protocolBps: rates.protocolFeeBps, creatorBps };
}

/** The split of one trade's lamports. */
export interface TradeAmounts {
  tokens: bigint;
  /** Lamports that move into (buy) or out of (sell) the curve's reserves. */
  curveLamports: bigint;
  protocolFee: bigint;
  creatorFee: bigint;
  /** Part of the protocol fee paid to the buyback recipient (a split, not an extra charge). */
  buybackFee: bigint;
}

/** Buyback share of a protocol fee: floor(protocol * buyback_bps / 10_000) (inferred rounding, documented). */
export function buybackShare(protocolFee: bigint, buybackBps: bigint): bigint {
  return (protocolFee * buybackBps) / BPS;
}

/** `buy(amount, max_sol_cost)` (D.1). */
export function quoteBuyExactTokens(
  curve: Curve,
  amount: bigint,
  maxSolCost: bigint,
  bps: { protocolBps: bigint; creatorBps: bigint },
  buybackBps: bigint,
): TradeAmounts {
  if (amount === 0n) throw new CurveRuleError(6020, "buy zero amount");
  if (amount > curve.realTokenReserves) throw new CurveRuleError(6021, "not enough tokens to buy");
  const solCost = (amount * curve.virtualQuoteReserves) / (curve.virtualTokenReserves - amount) + 1n;
  const protocolFee = feeOf(solCost, bps.protocolBps);
  const creatorFee = feeOf(solCost, bps.creatorBps);
  if (solCost + protocolFee + creatorFee > maxSolCost)
    throw new CurveRuleError(6002, "too much SOL required");
  return {
    tokens: amount,
    curveLamports: solCost,
    protocolFee,
    creatorFee,
    buybackFee: buybackShare(protocolFee, buybackBps),
  };
}

/** `buy_exact_sol_in(spendable, min_tokens_out)` per the IDL formula (B.1.3); the curve is credited net_sol. */
export function quoteBuyExactSolIn(
  curve: Curve,
  spendable: bigint,
  minTokensOut: bigint,
  bps: { protocolBps: bigint; creatorBps: bigint },
  buybackBps: bigint,
): TradeAmounts {
  if (spendable === 0n) throw new CurveRuleError(6020, "buy zero amount");
  const totalBps = bps.protocolBps + bps.creatorBps;
  let netSol = (spendable * BPS) / (BPS + totalBps);
  const estimate = feeOf(netSol, bps.protocolBps) + feeOf(netSol, bps.creatorBps);
  if (netSol + estimate > spendable) netSol -= netSol + estimate - spendable;
  if (netSol <= 1n) throw new CurveRuleError(6041, "buy not enough SOL to cover fees");
  // The trade then runs the ordinary buy path on net_sol, which charges the fees of net_sol itself
  // (documented choice: the user pays net_sol + fees(net_sol) <= spendable_sol_in).
  const protocolFee = feeOf(netSol, bps.protocolBps);
  const creatorFee = feeOf(netSol, bps.creatorBps);
  const tokens = ((netSol - 1n) * curve.virtualTokenReserves) / (curve.virtualQuoteReserves + netSol - 1n);
  if (tokens === 0n) throw new CurveRuleError(6020, "buy zero amount");
  if (tokens > curve.realTokenReserves) throw new CurveRuleError(6021, "not enough tokens to buy");
  if (tokens < minTokensOut) throw new CurveRuleError(6042, "slippage: below min tokens out");
  return {
    tokens,
    curveLamports: netSol,
    protocolFee,
    creatorFee,
    buybackFee: buybackShare(protocolFee, buybackBps),
  };
}

/** `sell(amount, min_sol_output)` (D.3): `curveLamports` is what leaves the curve in total. */
export function quoteSell(
  curve: Curve,
  amount: bigint,
  minSolOutput: bigint,
  bps: { protocolBps: bigint; creatorBps: bigint },
  buybackBps: bigint,
): TradeAmounts {
  if (amount === 0n) throw new CurveRuleError(6022, "sell zero amount");
  const solOut = (amount * curve.virtualQuoteReserves) / (curve.virtualTokenReserves + amount);
  const protocolFee = feeOf(solOut, bps.protocolBps);
  const creatorFee = feeOf(solOut, bps.creatorBps);
  if (protocolFee + creatorFee > solOut || solOut - protocolFee - creatorFee < minSolOutput)
    throw new CurveRuleError(6003, "too little SOL received");
  if (solOut > curve.realQuoteReserves)
    throw new CurveRuleError(6024, "overflow: sell exceeds real reserves");
  return {
    tokens: amount,
    curveLamports: solOut,
    protocolFee,
    creatorFee,
    buybackFee: buybackShare(protocolFee, buybackBps),
  };
}

/** The curve after a buy of `t` (reserves move by the tokens and the lamports credited to the curve). */
export function applyBuy(curve: Curve, t: TradeAmounts): Curve {
  const realTokenReserves = curve.realTokenReserves - t.tokens;
  return {
    ...curve,
    virtualTokenReserves: curve.virtualTokenReserves - t.tokens,
    realTokenReserves,
    virtualQuoteReserves: curve.virtualQuoteReserves + t.curveLamports,
    realQuoteReserves: curve.realQuoteReserves + t.curveLamports,
    complete: realTokenReserves === 0n ? true : curve.complete,
  };
}

/** The curve after a sell of `t`. */
export function applySell(curve: Curve, t: TradeAmounts): Curve {
  return {
    ...curve,
    virtualTokenReserves: curve.virtualTokenReserves + t.tokens,
    realTokenReserves: curve.realTokenReserves + t.tokens,
    virtualQuoteReserves: curve.virtualQuoteReserves - t.curveLamports,
    realQuoteReserves: curve.realQuoteReserves - t.curveLamports,
  };
}
