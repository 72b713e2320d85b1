/**
 * From a parsed trade intent and the venue's state to the instruction to send: which instruction, its
 * arguments, the spec's expected_output (the slippage threshold written into the transaction) and
 * amount_units. The six rows of the spec's expected_output table, in one place. Routing (which venue)
 * is decided once, by the launch layer's read interpretation (src/launch/trade-accounts.ts).
 */
import { BONDING_CURVE, LAUNCHSWAP } from "../../core/venues.js";
import { percentOfBalance } from "../../core/amounts.js";
import {
  buyExactSolInTokensOut,
  buyTokensCost,
  sellSolOut,
  type CurveFeesBps,
  type CurveState,
} from "../../launch/curve-quote.js";
import { badRequest, SPEC, TRADE_RULES } from "../../core/errors.js";
import { maxAfterSlippage, minAfterSlippage } from "../../core/slippage.js";
import { buyExactQuoteInV3Quote, buyV3Cost, type SyntheticInputs } from "../../launch/synthetic-quote.js";
import {
  swapBuyBaseInput,
  swapBuyQuoteInput,
  swapSellBaseInput,
  type SwapFeesBps,
  type SwapReserves,
} from "../../launch/swap-quote.js";

/** Trade side. */
export type TradeAction = "buy" | "sell";

/** What a trade's `amount` means once parsed. */
export type TradeAmount =
  | { readonly kind: "sol"; readonly lamports: bigint }
  | { readonly kind: "tokens"; readonly units: bigint }
  | { readonly kind: "percent"; readonly hundredths: bigint }
  /** Issue 30: `amount_tokens` of a sell, whole tokens as text; units once the mint's decimals are read. */
  | { readonly kind: "wholeTokens"; readonly text: string };

/** Where the trade executes, with the state its quote reads. */
export type VenueState =
  | {
      readonly venue: typeof BONDING_CURVE;
      readonly curve: CurveState & { readonly complete?: boolean };
      readonly fees: CurveFeesBps;
      /** Present when buys go out as v3: a buy past the curve continues into the would-be pool. */
      readonly synthetic?: SyntheticInputs;
    }
  | { readonly venue: typeof LAUNCHSWAP; readonly reserves: SwapReserves; readonly fees: SwapFeesBps };

/** Venue name as the spec writes it. */
export type Venue = VenueState["venue"];

/** The instruction to build, with its u64 arguments. */
export type TradeInstruction =
  /** Bonding curve: spend exactly `spendableSolIn`, receive at least `minTokensOut`. */
  | {
      readonly instruction: "buy_exact_sol_in";
      readonly spendableSolIn: bigint;
      readonly minTokensOut: bigint;
    }
  /** Curve `buy(amount, max_sol_cost)` or pool `buy(base_amount_out, max_quote_amount_in)`. */
  | { readonly instruction: "buy"; readonly amount: bigint; readonly maxQuoteIn: bigint }
  /** Curve `sell(amount, min_sol_output)` or pool `sell(base_amount_in, min_quote_amount_out)`. */
  | { readonly instruction: "sell"; readonly amount: bigint; readonly minQuoteOut: bigint };

/** A quoted trade: the instruction plus the response's expected_output and amount_units. */
export interface TradeQuote {
  readonly venue: Venue;
  readonly args: TradeInstruction;
  /** Slippage threshold written into the transaction (spec: expected_output). */
  readonly expectedOutput: bigint;
  /** Lamports for SOL buys, token units otherwise; the resolved units for percentage sells. */
  readonly amountUnits: bigint;
  /** The quote before slippage (tokens for SOL buys, lamports otherwise), for logs and bundles. */
  readonly quoted: bigint;
}

/** Inputs of quoteTrade. */
export interface TradeQuoteInput {
  readonly action: TradeAction;
  readonly amount: TradeAmount;
  readonly venue: VenueState;
  readonly slippageBps: bigint;
  /** The wallet's token balance read at execution time; required for percentage sells. */
  readonly tokenBalance?: bigint;
}

/** Quotes a trade and chooses its instruction (spec 4.3 expected_output table; issue 4 instruction choice). */
export function quoteTrade(input: TradeQuoteInput): TradeQuote {
  const { action, amount, venue, slippageBps } = input;
  if (venue.venue === BONDING_CURVE && venue.curve.complete === true)
    throw badRequest(TRADE_RULES.curveComplete);
  if (action === "sell") {
    const units = resolveSellUnits(amount, input.tokenBalance);
    return venue.venue === BONDING_CURVE
      ? curveSell(units, venue.curve, venue.fees, slippageBps)
      : swapSell(units, venue.reserves, venue.fees, slippageBps);
  }
  if (amount.kind === "percent") throw badRequest(TRADE_RULES.percentOnBuy);
  if (amount.kind === "wholeTokens") throw badRequest(TRADE_RULES.amountTokensOnBuy);
  if (amount.kind === "sol") {
    if (venue.venue === BONDING_CURVE && venue.synthetic !== undefined)
      return curveSolBuyV3(amount.lamports, venue.curve, venue.fees, venue.synthetic, slippageBps);
    return venue.venue === BONDING_CURVE
      ? curveSolBuy(amount.lamports, venue.curve, venue.fees, slippageBps)
      : swapSolBuy(amount.lamports, venue.reserves, venue.fees, slippageBps);
  }
  if (
    venue.venue === BONDING_CURVE &&
    venue.synthetic !== undefined &&
    amount.units > venue.curve.realTokenReserves
  )
    return curveTokenBuyV3(amount.units, venue.curve, venue.fees, venue.synthetic, slippageBps);
  return venue.venue === BONDING_CURVE
    ? curveTokenBuy(amount.units, venue.curve, venue.fees, slippageBps)
    : swapTokenBuy(amount.units, venue.reserves, venue.fees, slippageBps);
}

/** The threshold the instruction carries, which the spec returns as expected_output. */
function thresholdOf(args: TradeInstruction): bigint {
  if (args.instruction === "buy_exact_sol_in") return args.minTokensOut;
  return args.instruction === "buy" ? args.maxQuoteIn : args.minQuoteOut;
}

/** A quote whose expected_output is, by construction, the threshold written into its instruction. */
function quoteOf(venue: Venue, args: TradeInstruction, amountUnits: bigint, quoted: bigint): TradeQuote {
  return { venue, args, expectedOutput: thresholdOf(args), amountUnits, quoted };
}

/** Token units a sell moves: explicit units, or a percentage of the balance (floored, never above it). */
export function resolveSellUnits(amount: TradeAmount, tokenBalance: bigint | undefined): bigint {
  if (amount.kind === "tokens") return amount.units;
  // Resolved by quoteRead with the mint's decimals before any quote; reaching here is a bug.
  if (amount.kind === "wholeTokens")
    throw new Error("amount_tokens quoted before the mint's decimals were read");
  if (amount.kind === "sol") throw badRequest(SPEC.trade.sellInSol);
  if (tokenBalance === undefined || tokenBalance <= 0n) throw badRequest(TRADE_RULES.noTokenBalance);
  const units = percentOfBalance(tokenBalance, amount.hundredths);
  if (units <= 0n) throw badRequest(TRADE_RULES.percentZeroUnits);
  return units;
}

// Bonding-curve SOL buy: buy_exact_sol_in with the program's own formula, never the SDK's higher estimate.
function curveSolBuy(lamports: bigint, curve: CurveState, fees: CurveFeesBps, bps: bigint): TradeQuote {
  const { tokensOut } = buyExactSolInTokensOut(lamports, curve, fees);
  // The program's behaviour past the curve's real tokens is unverified (reference D.2); a threshold at
  // most the remaining tokens stays valid whether it caps the fill or not.
  const quoted = tokensOut < curve.realTokenReserves ? tokensOut : curve.realTokenReserves;
  return exactSolInQuote(lamports, quoted, bps);
}

// v3 SOL buy: buy_exact_quote_in_v3 spends the whole budget, past the curve into the would-be pool (synthetic
// migration), so the quote counts the tokens of both parts.
function curveSolBuyV3(
  lamports: bigint,
  curve: CurveState,
  fees: CurveFeesBps,
  synthetic: SyntheticInputs,
  bps: bigint,
): TradeQuote {
  return exactSolInQuote(lamports, buyExactQuoteInV3Quote(lamports, curve, fees, synthetic).tokensOut, bps);
}

/**
 * A curve buy spending exactly `lamports` quoted at `tokens`: the slippage bounds the tokens below, and a buy whose
 * bound is no token is refused.
 */
function exactSolInQuote(lamports: bigint, tokens: bigint, bps: bigint): TradeQuote {
  const minTokensOut = minAfterSlippage(tokens, bps);
  if (minTokensOut <= 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
  return quoteOf(
    BONDING_CURVE,
    { instruction: "buy_exact_sol_in", spendableSolIn: lamports, minTokensOut },
    lamports,
    tokens,
  );
}

// v3 token buy past what the curve has left: buy_v3 prices the rest on the would-be pool.
function curveTokenBuyV3(
  units: bigint,
  curve: CurveState,
  fees: CurveFeesBps,
  synthetic: SyntheticInputs,
  bps: bigint,
): TradeQuote {
  const quoted = buyV3Cost(units, curve, fees, synthetic);
  if (quoted === null) throw badRequest(TRADE_RULES.exceedsReserves);
  const maxQuoteIn = maxAfterSlippage(quoted, bps);
  return quoteOf(BONDING_CURVE, { instruction: "buy", amount: units, maxQuoteIn }, units, quoted);
}

function curveTokenBuy(units: bigint, curve: CurveState, fees: CurveFeesBps, bps: bigint): TradeQuote {
  // The SDK would silently price only the remaining tokens; the program refuses the buy (6021).
  if (units > curve.realTokenReserves) throw badRequest(TRADE_RULES.exceedsReserves);
  const quoted = buyTokensCost(units, curve, fees);
  const maxQuoteIn = maxAfterSlippage(quoted, bps);
  return quoteOf(BONDING_CURVE, { instruction: "buy", amount: units, maxQuoteIn }, units, quoted);
}

function curveSell(units: bigint, curve: CurveState, fees: CurveFeesBps, bps: bigint): TradeQuote {
  return sellQuote(BONDING_CURVE, units, sellSolOut(units, curve, fees), bps);
}

// Swap SOL buy: what the swap SDK's buyQuoteInput builds — buy(base quoted from the SOL amount, lamports × (1+s)).
function swapSolBuy(lamports: bigint, reserves: SwapReserves, fees: SwapFeesBps, bps: bigint): TradeQuote {
  const { base } = swapBuyQuoteInput(lamports, reserves, fees);
  if (base <= 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
  const maxQuoteIn = maxAfterSlippage(lamports, bps);
  return quoteOf(LAUNCHSWAP, { instruction: "buy", amount: base, maxQuoteIn }, lamports, base);
}

function swapTokenBuy(units: bigint, reserves: SwapReserves, fees: SwapFeesBps, bps: bigint): TradeQuote {
  const { totalQuote } = swapBuyBaseInput(units, reserves, fees);
  const maxQuoteIn = maxAfterSlippage(totalQuote, bps);
  return quoteOf(LAUNCHSWAP, { instruction: "buy", amount: units, maxQuoteIn }, units, totalQuote);
}

function swapSell(units: bigint, reserves: SwapReserves, fees: SwapFeesBps, bps: bigint): TradeQuote {
  return sellQuote(LAUNCHSWAP, units, swapSellBaseInput(units, reserves, fees).userQuoteOut, bps);
}

/** A sell of `units` quoted at `solOut` lamports: refused when it would pay nothing; the slippage bounds it below. */
function sellQuote(venue: Venue, units: bigint, solOut: bigint, bps: bigint): TradeQuote {
  if (solOut <= 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
  const minQuoteOut = minAfterSlippage(solOut, bps);
  return quoteOf(venue, { instruction: "sell", amount: units, minQuoteOut }, units, solOut);
}
