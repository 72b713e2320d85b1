/**
 * GET /v1/quote (issue 22): what a quoted trade moves, priced by the same launch-layer math the trade's
 * instruction choice uses (curve-quote.ts, swap-quote.ts): the tokens, the trader's lamports with the venue's
 * fees, each fee on its own, and the price impact. Pure; no chain access.
 */
import { buyExactQuoteInV3Quote, buyV3Parts } from "../../launch/synthetic-quote.js";
import { BONDING_CURVE } from "../../core/venues.js";
import {
  buyExactSolInTokensOut,
  curveBuyCost,
  curveFeeParts,
  curveSellGross,
  type CurveFeesBps,
  type CurveState,
} from "../../launch/curve-quote.js";
import {
  effectiveQuoteReserve,
  swapBuyBaseInput,
  swapFeeParts,
  swapSellBaseInput,
  type SwapFeesBps,
  type SwapReserves,
} from "../../launch/swap-quote.js";
import type { TradeInstruction, TradeQuote, VenueState } from "./quote.js";

/** The venue's fees of one trade, in lamports; `lp` is null on the bonding curve (it has none). */
export interface QuoteFees {
  readonly protocol: bigint;
  readonly creator: bigint;
  readonly lp: bigint | null;
}

/** What the quoted trade moves, before network fee, priority fee, relay tip and rent. */
export interface QuoteFigures {
  /** Token atomic units the trader receives (buy) or gives (sell). */
  readonly tokens: bigint;
  /** Lamports the trader pays (buy: venue amount plus fees) or receives (sell: venue amount less fees). */
  readonly sol: bigint;
  /** Lamports the curve or pool itself takes (buy) or gives (sell), fees excluded: the execution price's basis. */
  readonly venueSol: bigint;
  readonly fees: QuoteFees;
  /** Spot price before vs execution price (fees excluded), percent with 4 decimals, as text. */
  readonly priceImpactPercent: string;
}

/** The spot price's two reserves: price = quote / tokens (lamports per token atomic unit). */
interface SpotReserves {
  readonly tokens: bigint;
  readonly quote: bigint;
}

/** The figures of a quote from quoteTrade against the venue state it was quoted on. */
export function quoteFigures(quote: Pick<TradeQuote, "args" | "quoted">, venue: VenueState): QuoteFigures {
  const moved = quoteMoves(quote, venue);
  const spot: SpotReserves =
    venue.venue === BONDING_CURVE
      ? { tokens: venue.curve.virtualTokenReserves, quote: venue.curve.virtualQuoteReserves }
      : { tokens: venue.reserves.baseReserve, quote: effectiveQuoteReserve(venue.reserves) };
  const buying = quote.args.instruction !== "sell";
  // Fields listed rather than spread: a spread copy is several times slower on this hot path (order evaluation).
  return {
    tokens: moved.tokens,
    sol: moved.sol,
    venueSol: moved.venueSol,
    fees: moved.fees,
    priceImpactPercent: formatPercent(priceImpact(buying, moved.tokens, moved.venueSol, spot)),
  };
}

/** What a quote moves (quoteFigures without the price impact): the order engine's quote per size. */
export type Moves = Omit<QuoteFigures, "priceImpactPercent">;

/** The tokens, lamports and fees of a quote, without the price impact text (quoteFigures' own moves). */
export function quoteMoves(quote: Pick<TradeQuote, "args" | "quoted">, venue: VenueState): Moves {
  return venue.venue === BONDING_CURVE
    ? (syntheticMoves(quote, venue) ?? curveMoves(quote, venue.curve, venue.fees))
    : swapMoves(quote.args, venue.reserves, venue.fees);
}

/** The curve's fee parts as a quote's fees (no LP fee on the curve). */
function curveQuoteFees(amount: bigint, rates: CurveFeesBps): QuoteFees {
  const p = curveFeeParts(amount, rates);
  return { protocol: p.protocol, creator: p.creator, lp: null };
}

/** Every fee of a quote together (lamports). */
export const feeTotal = (f: QuoteFees): bigint => f.protocol + f.creator + (f.lp ?? 0n);

function curveMoves(
  quote: Pick<TradeQuote, "args" | "quoted">,
  curve: CurveState,
  rates: CurveFeesBps,
): Moves {
  const a = quote.args;
  if (a.instruction === "sell") {
    const venueSol = curveSellGross(a.amount, curve);
    const fees = curveQuoteFees(venueSol, rates);
    return { tokens: a.amount, sol: venueSol - feeTotal(fees), venueSol, fees };
  }
  // buy_exact_sol_in credits net_sol to the curve and charges the fees of net_sol (reference B.1.3);
  // `buy` takes the curve's cost of exactly `amount` tokens plus the fees of that cost (D.1).
  const venueSol =
    a.instruction === "buy_exact_sol_in"
      ? buyExactSolInTokensOut(a.spendableSolIn, curve, rates).netSol
      : curveBuyCost(a.amount, curve);
  const tokens = a.instruction === "buy_exact_sol_in" ? quote.quoted : a.amount;
  const fees = curveQuoteFees(venueSol, rates);
  return { tokens, sol: venueSol + feeTotal(fees), venueSol, fees };
}

/** A v3 buy that crosses completion: both parts, each with its own fees; null for any other quote. */
function syntheticMoves(
  quote: Pick<TradeQuote, "args" | "quoted">,
  venue: Extract<VenueState, { venue: typeof BONDING_CURVE }>,
): Moves | null {
  const { curve, fees: rates, synthetic } = venue;
  const a = quote.args;
  if (synthetic === undefined || a.instruction === "sell") return null;
  let parts: { curveQuote: bigint; poolQuote: bigint } | null;
  if (a.instruction === "buy_exact_sol_in") {
    const q = buyExactQuoteInV3Quote(a.spendableSolIn, curve, rates, synthetic);
    parts = q.completes ? { curveQuote: q.curveQuote, poolQuote: q.poolQuote } : null;
  } else {
    parts = a.amount > curve.realTokenReserves ? buyV3Parts(a.amount, curve, synthetic) : null;
  }
  if (parts === null) return null;
  const curveFees = curveFeeParts(parts.curveQuote, rates);
  const poolFees = curveFeeParts(parts.poolQuote, rates);
  const fees = {
    protocol: curveFees.protocol + poolFees.protocol,
    creator: curveFees.creator + poolFees.creator,
    lp: null,
  };
  const venueSol = parts.curveQuote + parts.poolQuote;
  const tokens = a.instruction === "buy_exact_sol_in" ? quote.quoted : a.amount;
  return { tokens, sol: venueSol + feeTotal(fees), venueSol, fees };
}

function swapMoves(a: TradeInstruction, reserves: SwapReserves, rates: SwapFeesBps): Moves {
  if (a.instruction === "buy_exact_sol_in") throw new Error("buy_exact_sol_in is not a swap instruction");
  // In both directions the fees are shares of the SOL the pool itself moves (venueSol), not of the wallet's.
  const moves = (sol: bigint, venueSol: bigint): Moves => ({
    tokens: a.amount,
    sol,
    venueSol,
    fees: swapFeeParts(venueSol, rates),
  });
  if (a.instruction === "sell") {
    const { internalQuoteAmountOut, userQuoteOut } = swapSellBaseInput(a.amount, reserves, rates);
    return moves(userQuoteOut, internalQuoteAmountOut);
  }
  // Both pool buys are `buy(base_amount_out, max_quote_amount_in)`: the pool charges buyBaseInput's total.
  const { internalQuoteAmount, totalQuote } = swapBuyBaseInput(a.amount, reserves, rates);
  return moves(totalQuote, internalQuoteAmount);
}

/** A fraction num/den (den > 0). */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

/**
 * Price impact as a fraction: how far the execution price (venue lamports / tokens, fees excluded) lies from the
 * spot price before the trade (quote / tokens reserves), in the trade's disfavour: buys pay above spot, sells
 * receive below it. 0 for a trade that moves no tokens.
 */
export function priceImpact(buying: boolean, tokens: bigint, venueSol: bigint, spot: SpotReserves): Ratio {
  const den = tokens * spot.quote;
  if (den === 0n) return { num: 0n, den: 1n };
  const diff = venueSol * spot.tokens - den;
  return { num: buying ? diff : -diff, den };
}

/** A fraction as a percent with 4 decimals, rounded half away from zero: 1/3 → "33.3333". */
export function formatPercent(r: Ratio): string {
  const negative = r.num < 0n !== r.den < 0n && r.num !== 0n;
  const num = r.num < 0n ? -r.num : r.num;
  const den = r.den < 0n ? -r.den : r.den;
  const scaled = (num * 1_000_000n * 2n + den) / (2n * den);
  const whole = scaled / 10_000n;
  const frac = (scaled % 10_000n).toString().padStart(4, "0");
  return `${negative && scaled !== 0n ? "-" : ""}${whole}.${frac}`;
}
