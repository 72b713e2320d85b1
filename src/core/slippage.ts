/**
 * Slippage: the trade endpoint's percent / basis-point inputs and the thresholds they produce. Thresholds
 * round toward the user: a minimum rounds up, a maximum rounds down, so the threshold written into a
 * transaction is never looser than the slippage the caller asked for (this is also what pump-sdk's builders
 * compute: `x - floor(x*s)` and `x + floor(x*s)`).
 */
import { parseNonNegativeInteger, parsePercent } from "./amounts.js";
import { badRequest, SPEC, TRADE_RULES } from "./errors.js";

/** Basis points in 100 %. */
export const BPS_DENOMINATOR = 10_000n;
/** Default slippage of trades, creates and bundle legs: 2 % = 200 bps. */
export const DEFAULT_SLIPPAGE_BPS = 200n;
/** Maximum slippage everywhere: 50 % = 5000 bps. */
export const MAX_SLIPPAGE_BPS = 5_000n;

/** Options of parseSlippagePercent. */
export interface SlippagePercentOptions {
  /** Whether 0 % is accepted (trade: yes; create's initial_buy: no, the spec says "greater than 0"). */
  readonly allowZero: boolean;
}

/**
 * Parses a slippage percent (JSON number or string, ≤ 2 decimals, ≤ 50) into bps. A percent with two
 * decimals is exactly an integer number of bps, so no rounding happens here.
 */
export function parseSlippagePercent(value: unknown, opts: SlippagePercentOptions): bigint {
  if (typeof value !== "number" && typeof value !== "string") throw badRequest(TRADE_RULES.slippageInvalid);
  const text = typeof value === "number" ? String(value) : value;
  const bps = parsePercent(text, {
    maxDecimals: 2,
    invalid: TRADE_RULES.slippageInvalid,
    decimals: TRADE_RULES.slippageDecimals,
  });
  const min = opts.allowZero ? 0n : 1n;
  if (bps < min || bps > MAX_SLIPPAGE_BPS) {
    throw badRequest(opts.allowZero ? TRADE_RULES.slippageRange : TRADE_RULES.slippagePositiveRange);
  }
  return bps;
}

/** Parses `slippage_bps`: an integer 0..5000 as a JSON number or a digit string. */
export function parseSlippageBps(value: unknown): bigint {
  const bps = parseNonNegativeInteger(value, TRADE_RULES.slippageBps);
  if (bps > MAX_SLIPPAGE_BPS) throw badRequest(TRADE_RULES.slippageBps);
  return bps;
}

/** The slippage fields of a trade request (absent = undefined; JSON null counts as absent). */
export interface TradeSlippageInput {
  readonly slippage?: unknown;
  readonly slippage_bps?: unknown;
}

/** Resolves a trade's slippage to bps: `slippage` percent or `slippage_bps` (not both), default 200. */
export function resolveTradeSlippage(input: TradeSlippageInput): bigint {
  const hasPercent = input.slippage !== undefined && input.slippage !== null;
  const hasBps = input.slippage_bps !== undefined && input.slippage_bps !== null;
  if (hasPercent && hasBps) throw badRequest(SPEC.trade.slippageBoth);
  if (hasPercent) return parseSlippagePercent(input.slippage, { allowZero: true });
  if (hasBps) return parseSlippageBps(input.slippage_bps);
  return DEFAULT_SLIPPAGE_BPS;
}

/**
 * Lowest acceptable output: ceil(x × (10000 − bps) / 10000), written as x − floor(x × bps / 10000). Ceil, not
 * floor: a floored minimum would accept up to one unit less than the caller's slippage allows.
 */
export function minAfterSlippage(x: bigint, bps: bigint): bigint {
  return x - (x * bps) / BPS_DENOMINATOR;
}

/** Highest acceptable input: floor(x × (10000 + bps) / 10000). Floor keeps it at or below the exact value. */
export function maxAfterSlippage(x: bigint, bps: bigint): bigint {
  return (x * (BPS_DENOMINATOR + bps)) / BPS_DENOMINATOR;
}
