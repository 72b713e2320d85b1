/**
 * GET /v1/quote (issue 22): the trade request's own rules (parseTradeRequest: amounts, denominated_in_sol,
 * slippage, their texts), the trade's read and routing (tradeState: warm state or one getMultipleAccounts),
 * the trade's instruction choice (quoteTrade) and the launch layer's math. No wallet: nothing is signed.
 */
import { LAUNCHSWAP, type Venue } from "../../core/venues.js";
import type { Chain } from "../../chain/chain.js";
import { isPercentText, parseWholeTokens } from "../../core/amounts.js";
import { badRequest, TRADE_RULES } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import type { VenueState as WarmVenues } from "../watch/venue-state.js";
import { tradeBounds, type TradeBounds } from "./bounds.js";
import { cachedTradeConfigs, chainGeneration } from "./configs.js";
import { venueStateOf } from "./plan.js";
import { quoteTrade, type TradeAmount } from "./quote.js";
import { feeTotal, quoteFigures } from "./quote-figures.js";
import { parseTradeRequest, type TradeIntent } from "./request.js";
import { tradeState } from "./warm-read.js";

/** Collaborators of a quote. */
export interface QuoteDeps {
  chain: Pick<Chain, "rpc" | "caches"> & Partial<Pick<Chain, "programGeneration">>;
  /** Warm venue state (issue 18): a watched mint is quoted without a read. */
  venues?: Pick<WarmVenues, "lookup" | "afterRead">;
}

/** The trade body fields that describe the trade itself (not the wallet or the execution switches): a quote's query. */
export const TRADE_SHAPE_FIELDS = [
  "action",
  "side",
  "mint",
  "token_mint",
  "pool",
  "amount",
  "amount_tokens",
  "denominated_in_sol",
  "denominatedInSol",
  "slippage",
  "slippage_bps",
] as const;

/** The answer of GET /v1/quote; lamport and token amounts as decimal strings. */
export type QuoteAnswer = {
  mint: string;
  side: "buy" | "sell";
  venue: Venue;
  pool: string | null;
  amount: string;
  amount_units: bigint;
  /** Issue 30: amount_units as decimal text (the spec fixes amount_units as a JSON integer; u64 exceeds 2^53). */
  amount_units_text: string;
  denominated_in_sol: boolean;
  slippage_bps: number;
  /** Buys: tokens received; sells: absent (tokens_in from the bounds). */
  tokens_out?: string;
  /** Buys: lamports paid with the venue's fees. */
  sol_in_lamports?: string;
  /** Sells: lamports received after the venue's fees. */
  sol_out_lamports?: string;
  price_impact_percent: string;
  fees: {
    protocol_fee_lamports: string;
    creator_fee_lamports: string;
    lp_fee_lamports: string | null;
    total_fee_lamports: string;
  };
  state_source: "cache" | "read" | "event";
  state_slot: number;
} & TradeBounds;

/** Parses the quote's query into a trade intent, with the trade's own rules and texts. */
export function parseQuoteQuery(query: RequestBody): TradeIntent {
  const side = query.side ?? query.action;
  if (side !== "buy" && side !== "sell") throw badRequest(TRADE_RULES.quoteSide);
  // A percentage is of a wallet's balance; a quote has no wallet.
  if (isPercentText(query.amount)) throw badRequest(TRADE_RULES.quotePercent);
  const body: RequestBody = {};
  for (const name of TRADE_SHAPE_FIELDS) if (query[name] !== undefined) body[name] = query[name];
  return parseTradeRequest(body);
}

/**
 * The user the trade read is planned for. A quote has none: the mint itself stands in (any key gives the same
 * mint, curve and pool addresses; its "wallet" accounts are read and ignored), as the warm state's plans do.
 */
const placeholderUser = (intent: TradeIntent): string => intent.mint;

/**
 * Quotes a trade without a wallet: venue, amounts in and out, slippage bounds, fees and price impact. The
 * warm state records `account`'s interest in the mint (issue 29).
 */
export async function quote(deps: QuoteDeps, query: RequestBody, account?: number): Promise<QuoteAnswer> {
  const intent = parseQuoteQuery(query);
  const state = await tradeState(deps.chain.rpc, deps.venues, intent, placeholderUser(intent), account);
  const read = state.read;
  const venue = venueStateOf(read, cachedTradeConfigs(deps.chain.caches, chainGeneration(deps.chain)));
  // Issue 30: whole tokens (amount_tokens) with the mint's decimals from the same read.
  const amount: TradeAmount =
    intent.amount.kind === "wholeTokens"
      ? { kind: "tokens", units: parseWholeTokens(intent.amount.text, read.decimals) }
      : intent.amount;
  const q = quoteTrade({
    action: intent.action,
    amount,
    venue,
    slippageBps: intent.slippageBps,
  });
  const f = quoteFigures(q, venue);
  const total = feeTotal(f.fees);
  const buying = intent.action === "buy";
  return {
    mint: read.mint.toBase58(),
    side: intent.action,
    venue: read.venue,
    pool: read.venue === LAUNCHSWAP ? read.poolAddress.toBase58() : null,
    amount: intent.amount.kind === "wholeTokens" ? q.amountUnits.toString() : intent.amountText,
    amount_units: q.amountUnits,
    amount_units_text: q.amountUnits.toString(),
    denominated_in_sol: intent.denominatedInSol,
    slippage_bps: Number(intent.slippageBps),
    ...(buying
      ? { tokens_out: f.tokens.toString(), sol_in_lamports: f.sol.toString() }
      : { sol_out_lamports: f.sol.toString() }),
    ...tradeBounds(q),
    price_impact_percent: f.priceImpactPercent,
    fees: {
      protocol_fee_lamports: f.fees.protocol.toString(),
      creator_fee_lamports: f.fees.creator.toString(),
      lp_fee_lamports: f.fees.lp === null ? null : f.fees.lp.toString(),
      total_fee_lamports: total.toString(),
    },
    state_source: state.source,
    state_slot: state.slot,
  };
}
