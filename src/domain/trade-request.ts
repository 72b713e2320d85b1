/**
 * The trade endpoint's request rules (spec 4.3): aliases, defaults, the amount table and slippage, turned
 * into a TradeIntent. Pure: routing and balances are read later by the trade service.
 */
import { parseAddress, type Address } from "./addresses.js";
import { amountText, isPercentText, parseSellPercent, parseSolAmount, parseTokenUnits } from "./amounts.js";
import { badRequest, RULES, SPEC } from "./errors.js";
import { resolveTradeSlippage } from "./slippage.js";
import type { TradeAction, TradeAmount } from "./trade-quote.js";

/** A validated trade request with every default applied. */
export interface TradeIntent {
  readonly action: TradeAction;
  readonly mint: Address;
  /** Explicit swap pool (forces the launchswap venue), or null to route by the curve. */
  readonly pool: Address | null;
  /** The request's amount as text, echoed in the response's `amount`. */
  readonly amountText: string;
  readonly amount: TradeAmount;
  readonly denominatedInSol: boolean;
  readonly slippageBps: bigint;
  readonly simulate: boolean;
  readonly confirm: boolean;
  readonly measureTiming: boolean;
  /** Managed wallet to sign with, or null for the key's default wallet. */
  readonly wallet: Address | null;
}

/** Parses and validates a trade request body (spec 4.3); throws a 400 ApiError with the exact text. */
export function parseTradeRequest(body: Record<string, unknown>): TradeIntent {
  const action = pick(body, "action", "side");
  if (action !== "buy" && action !== "sell") throw badRequest(SPEC.trade.badAction);

  const mintValue = pick(body, "mint", "token_mint");
  if (mintValue === undefined) throw badRequest(RULES.mintRequired);
  const mint = parseAddress(mintValue, RULES.mintInvalid);
  const poolValue = pick(body, "pool");
  const pool = poolValue === undefined ? null : parseAddress(poolValue, RULES.poolInvalid);

  const rawAmount = body.amount;
  if (rawAmount === undefined) throw badRequest(RULES.amountRequired);
  const text = amountText(rawAmount);

  const denominatedValue = pick(body, "denominated_in_sol", "denominatedInSol");
  const denominatedInSol =
    denominatedValue === undefined
      ? action === "buy"
      : parseBoolean(denominatedValue, RULES.denominatedInSol);

  const amount = parseAmount(action, denominatedInSol, rawAmount, text);
  const slippageBps = resolveTradeSlippage({
    slippage: pick(body, "slippage"),
    slippage_bps: pick(body, "slippage_bps"),
  });

  const walletValue = pick(body, "wallet");
  return {
    action,
    mint,
    pool,
    amountText: text,
    amount,
    denominatedInSol,
    slippageBps,
    simulate: optionalBoolean(body, "simulate", true, RULES.simulateBoolean),
    confirm: optionalBoolean(body, "confirm", true, RULES.confirmBoolean),
    measureTiming: optionalBoolean(body, "measure_timing", false, RULES.measureTimingBoolean),
    wallet: walletValue === undefined ? null : parseAddress(walletValue, RULES.walletInvalid),
  };
}

/** The amount table of spec 4.3: SOL buys, exact-token buys, token sells, percentage sells. */
function parseAmount(
  action: TradeAction,
  denominatedInSol: boolean,
  raw: unknown,
  text: string,
): TradeAmount {
  if (action === "sell") {
    if (denominatedInSol) throw badRequest(SPEC.trade.sellInSol);
    if (isPercentText(raw)) return { kind: "percent", hundredths: parseSellPercent(text) };
    return { kind: "tokens", units: parseTokenUnits(raw) };
  }
  if (isPercentText(raw)) throw badRequest(RULES.percentOnBuy);
  if (denominatedInSol) return { kind: "sol", lamports: parseSolAmount(raw) };
  return { kind: "tokens", units: parseTokenUnits(raw) };
}

/** The first present field among a name and its alias; JSON null counts as absent. */
function pick(body: Record<string, unknown>, name: string, alias?: string): unknown {
  const value = body[name];
  if (value !== undefined && value !== null) return value;
  if (alias === undefined) return undefined;
  const aliased = body[alias];
  return aliased === null ? undefined : aliased;
}

/** A JSON boolean or the strings "true"/"false" (any case, surrounding spaces ignored). */
export function parseBoolean(value: unknown, errorText: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const normalized = value.trim().toLowerCase();
    if (normalized === "true") return true;
    if (normalized === "false") return false;
  }
  throw badRequest(errorText);
}

function optionalBoolean(
  body: Record<string, unknown>,
  name: string,
  fallback: boolean,
  errorText: string,
): boolean {
  const value = pick(body, name);
  return value === undefined ? fallback : parseBoolean(value, errorText);
}
