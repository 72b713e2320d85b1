/**
 * Swap-pool (AMM) quote math in bigint, exactly as pump-swap-sdk 1.20.0 computes it (reference
 * launch-programs.md B.2). Slippage is not applied here: trade-quote applies it in basis points.
 */
import { calculateFeeTier, ceilDiv, feeAmount, type FeeRates, type FeeTier } from "./curve-quote.js";
import { badRequest, TRADE_RULES } from "../core/errors.js";
import { BPS_DENOMINATOR } from "../core/slippage.js";

/** pump-amm TOTAL_TOKEN_SUPPLY: the market-cap basis of mayhem pools (the curve uses it the other way round). */
const PUMP_AMM_TOTAL_TOKEN_SUPPLY = 1_000_000_000_000_000n;

/** Pool reserves: vault balances plus the pool's signed virtual quote reserves (0 for ordinary pools). */
export interface SwapReserves {
  readonly baseReserve: bigint;
  readonly quoteReserve: bigint;
  readonly virtualQuoteReserves: bigint;
}

/** The rates a swap is charged; `creatorFeeBps` is already 0 when the pool has no coin creator. */
export type SwapFeesBps = FeeRates;

/** Inputs of computeSwapFeesBps. */
export interface SwapFeeInputs {
  /** The AMM FeeConfig's SOL tiers and flat fees, or null without a FeeConfig (then `globalFees` apply). */
  readonly feeConfig: { readonly feeTiers: readonly FeeTier[]; readonly flatFees: FeeRates } | null;
  /** GlobalConfig lp / protocol / coin-creator basis points. */
  readonly globalFees: FeeRates;
  /** GlobalConfig.creatorFeeConfigurable (absent = false). */
  readonly creatorFeeConfigurable?: boolean;
  /** Pool.creatorFeeBps (absent or 0 = the schedule's rate). */
  readonly poolCreatorFeeBps?: bigint;
  /** Pool.creator == pumpPoolAuthorityPda(baseMint): canonical pools pay tiers, others the flat fees. */
  readonly isCanonicalPool: boolean;
  /** Live base mint supply (market-cap basis unless the pool is in mayhem mode). */
  readonly baseMintSupply: bigint;
  readonly reserves: SwapReserves;
  readonly isMayhemMode: boolean;
  /** Pool.coinCreator != default. */
  readonly hasCoinCreator: boolean;
}

/** Effective quote reserve: vault balance plus virtual reserves (signed). */
export function effectiveQuoteReserve(reserves: SwapReserves): bigint {
  return reserves.quoteReserve + reserves.virtualQuoteReserves;
}

/** Fee rates of a SOL-quoted pool trade (reference B.2), creator rate zeroed without a coin creator. */
export function computeSwapFeesBps(input: SwapFeeInputs): SwapFeesBps {
  let rates = input.globalFees;
  if (input.feeConfig !== null) {
    if (!input.isCanonicalPool) {
      rates = input.feeConfig.flatFees;
    } else {
      const supply = input.isMayhemMode ? PUMP_AMM_TOTAL_TOKEN_SUPPLY : input.baseMintSupply;
      const base = input.reserves.baseReserve;
      const marketCap = base > 0n ? (effectiveQuoteReserve(input.reserves) * supply) / base : 0n;
      rates = calculateFeeTier(input.feeConfig.feeTiers, marketCap);
    }
    // The per-pool creator rate only exists with a FeeConfig, as on chain (pump-amm compute_fees).
    if (input.creatorFeeConfigurable === true && (input.poolCreatorFeeBps ?? 0n) > 0n) {
      rates = { ...rates, creatorFeeBps: input.poolCreatorFeeBps ?? 0n };
    }
  }
  return { ...rates, creatorFeeBps: input.hasCoinCreator ? rates.creatorFeeBps : 0n };
}

/** The three fees a pool trade pays on `amount` (the pool's own quote amount), in lamports. */
export interface SwapFeeParts {
  /** LP fee (stays in the pool's quote vault). */
  readonly lp: bigint;
  /** Protocol fee (the program splits a buyback share off it; the trader pays it once). */
  readonly protocol: bigint;
  /** Coin-creator fee (0 without a coin creator). */
  readonly creator: bigint;
}

/** lp, protocol and creator fee on `amount`, each rounded up on its own. */
export function swapFeeParts(amount: bigint, fees: SwapFeesBps): SwapFeeParts {
  return {
    lp: feeAmount(amount, fees.lpFeeBps),
    protocol: feeAmount(amount, fees.protocolFeeBps),
    creator: feeAmount(amount, fees.creatorFeeBps),
  };
}

/** lp + protocol + creator fee on `amount`. */
function swapFees(amount: bigint, fees: SwapFeesBps): bigint {
  const parts = swapFeeParts(amount, fees);
  return parts.lp + parts.protocol + parts.creator;
}

/** buyBaseInput without slippage: quote the pool takes for exactly `base` tokens, and that plus fees. */
export interface SwapBuyBaseQuote {
  readonly internalQuoteAmount: bigint;
  readonly totalQuote: bigint;
}

/** The SDK's buyBaseInput: lamports (with fees) to buy exactly `base` tokens; 400 when the pool lacks them. */
export function swapBuyBaseInput(base: bigint, reserves: SwapReserves, fees: SwapFeesBps): SwapBuyBaseQuote {
  assertLiquid(reserves);
  if (base >= reserves.baseReserve) throw badRequest(TRADE_RULES.exceedsReserves);
  const internalQuoteAmount = ceilDiv(effectiveQuoteReserve(reserves) * base, reserves.baseReserve - base);
  return { internalQuoteAmount, totalQuote: internalQuoteAmount + swapFees(internalQuoteAmount, fees) };
}

/** buyQuoteInput without slippage: base out for `quote` lamports and the quote left after fees. */
export interface SwapBuyQuoteQuote {
  readonly base: bigint;
  readonly internalQuoteWithoutFees: bigint;
}

/** The SDK's buyQuoteInput (= on-chain buy_exact_quote_in): base tokens out for spending `quote` lamports. */
export function swapBuyQuoteInput(
  quote: bigint,
  reserves: SwapReserves,
  fees: SwapFeesBps,
): SwapBuyQuoteQuote {
  assertLiquid(reserves);
  const totalBps = fees.lpFeeBps + fees.protocolFeeBps + fees.creatorFeeBps;
  let effective = (quote * BPS_DENOMINATOR) / (BPS_DENOMINATOR + totalBps);
  const withFees = effective + swapFees(effective, fees);
  if (withFees > quote) effective -= withFees - quote;
  if (effective <= 1n) return { base: 0n, internalQuoteWithoutFees: effective };
  const input = effective - 1n;
  const base = (reserves.baseReserve * input) / (effectiveQuoteReserve(reserves) + input);
  return { base, internalQuoteWithoutFees: effective };
}

/** sellBaseInput without slippage: lamports the seller receives and the pool's gross output. */
export interface SwapSellBaseQuote {
  readonly userQuoteOut: bigint;
  readonly internalQuoteAmountOut: bigint;
}

/** The SDK's sellBaseInput: lamports received after fees for selling `base` tokens. */
export function swapSellBaseInput(
  base: bigint,
  reserves: SwapReserves,
  fees: SwapFeesBps,
): SwapSellBaseQuote {
  assertLiquid(reserves);
  const gross = (effectiveQuoteReserve(reserves) * base) / (reserves.baseReserve + base);
  const lpFee = feeAmount(gross, fees.lpFeeBps);
  if (reserves.quoteReserve < gross - lpFee) throw badRequest(TRADE_RULES.insufficientQuoteReserves);
  const userQuoteOut = gross - swapFees(gross, fees);
  if (userQuoteOut < 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
  return { userQuoteOut, internalQuoteAmountOut: gross };
}

/** The SDK refuses empty pools; so do we, with a 400 the caller can show. */
function assertLiquid(reserves: SwapReserves): void {
  if (reserves.baseReserve <= 0n || reserves.quoteReserve <= 0n) throw badRequest(TRADE_RULES.emptyPool);
}
