/**
 * The trade endpoint's request rules (spec 4.3): aliases, defaults, the amount table and slippage, turned
 * into a TradeIntent. Pure: routing and balances are read later by the trade service.
 */
import { parseAddress, type Address } from "../../core/addresses.js";
import {
  amountText,
  checkWholeTokensText,
  isPercentText,
  parseSellPercent,
  parseSolAmount,
  parseTokenUnits,
} from "../../core/amounts.js";
import { fieldOf, parseBoolean, parseBooleanField, type RequestBody } from "../../core/request-fields.js";
import { badRequest, SPEC, TRADE_RULES } from "../../core/errors.js";
import { resolveTradeSlippage } from "../../core/slippage.js";
import type { TradeAction, TradeAmount } from "./quote.js";

/** A validated trade request with every default applied. */
export interface TradeIntent {
  readonly action: TradeAction;
  readonly mint: Address;
  /** Explicit swap pool (forces the launchswap venue), or null to route by the curve. */
  readonly pool: Address | null;
  /** The request's amount as text (or its `amount_tokens`), echoed in the response's `amount`. */
  readonly amountText: string;
  readonly amount: TradeAmount;
  readonly denominatedInSol: boolean;
  readonly slippageBps: bigint;
  readonly simulate: boolean;
  readonly confirm: boolean;
  readonly measureTiming: boolean;
  /** Managed wallet to sign with, or null for the key's default wallet. */
  readonly wallet: Address | null;
  /** The racing fields as sent (`routes`, `mev_protect`), judged with the configured routes by race-request.ts. */
  readonly raceFields?: { readonly routes?: unknown; readonly mev_protect?: unknown };
}

/** Parses and validates a trade request body (spec 4.3); throws a 400 ApiError with the exact text. */
export function parseTradeRequest(body: RequestBody): TradeIntent {
  const action = fieldOf(body, ["action", "side"]);
  if (action !== "buy" && action !== "sell") throw badRequest(SPEC.trade.badAction);

  const mintValue = fieldOf(body, ["mint", "token_mint"]);
  if (mintValue === undefined) throw badRequest(TRADE_RULES.mintRequired);
  const mint = parseAddress(mintValue, TRADE_RULES.mintInvalid);
  const poolValue = fieldOf(body, ["pool"]);
  const pool = poolValue === undefined ? null : parseAddress(poolValue, TRADE_RULES.poolInvalid);

  const rawAmount = body.amount;
  const rawTokens = body.amount_tokens;
  if (rawAmount !== undefined && rawTokens !== undefined) throw badRequest(TRADE_RULES.amountAndTokens);
  if (rawAmount === undefined && rawTokens === undefined) throw badRequest(TRADE_RULES.amountRequired);

  const denominatedValue = fieldOf(body, ["denominated_in_sol", "denominatedInSol"]);
  const denominatedInSol =
    denominatedValue === undefined
      ? action === "buy"
      : parseBoolean(denominatedValue, TRADE_RULES.denominatedInSol);

  let text: string;
  let amount: TradeAmount;
  if (rawTokens !== undefined) {
    if (action !== "sell") throw badRequest(TRADE_RULES.amountTokensOnBuy);
    if (denominatedInSol) throw badRequest(SPEC.trade.sellInSol);
    text = checkWholeTokensText(rawTokens);
    amount = { kind: "wholeTokens", text };
  } else {
    text = amountText(rawAmount);
    amount = parseAmount(action, denominatedInSol, rawAmount, text);
  }
  const slippageBps = resolveTradeSlippage({
    slippage: fieldOf(body, ["slippage"]),
    slippage_bps: fieldOf(body, ["slippage_bps"]),
  });

  const walletValue = fieldOf(body, ["wallet"]);
  return {
    action,
    mint,
    pool,
    amountText: text,
    amount,
    denominatedInSol,
    slippageBps,
    simulate: parseBooleanField(body.simulate, true, TRADE_RULES.simulateBoolean),
    confirm: parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean),
    measureTiming: parseBooleanField(body.measure_timing, false, TRADE_RULES.measureTimingBoolean),
    wallet: walletValue === undefined ? null : parseAddress(walletValue, TRADE_RULES.walletInvalid),
    ...(body.routes !== undefined || body.mev_protect !== undefined
      ? { raceFields: { routes: body.routes, mev_protect: body.mev_protect } }
      : {}),
  };
}

/**
 * The amount table of spec 4.3: SOL buys, exact-token buys, token sells, percentage sells (whole-token sells,
 * `amount_tokens`, are parsed beside it).
 */
function parseAmount(
  action: TradeAction,
  denominatedInSol: boolean,
  raw: unknown,
  text: string,
): TradeAmount {
  if (action === "sell") {
    if (denominatedInSol) throw badRequest(SPEC.trade.sellInSol);
    if (isPercentText(raw)) return { kind: "percent", hundredths: parseSellPercent(text) };
    return { kind: "tokens", units: parseTokenUnits(raw, TRADE_RULES.sellTokenUnits) };
  }
  if (isPercentText(raw)) throw badRequest(TRADE_RULES.percentOnBuy);
  if (denominatedInSol) return { kind: "sol", lamports: parseSolAmount(raw) };
  return { kind: "tokens", units: parseTokenUnits(raw) };
}
