/**
 * What one venue state says about an order's size: its price (SOL per whole token, fees included) and, for a
 * sell, the SOL it gets, by the same launch-layer math a trade's quote uses (curve-quote.ts, swap-quote.ts
 * through quoteTrade and quoteFigures). Pure.
 */
import { ApiError } from "../../core/errors.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import { venueStateOf, type TradeConfigs } from "../trade/plan.js";
import { quoteMoves } from "../trade/quote-figures.js";
import { quoteTrade, type VenueState } from "../trade/quote.js";
import type { OrderAmount } from "./model.js";
import { priceOf, type Observation } from "./rules.js";

/** The size an observation is for: a sell's token units or a buy's SOL. */
export type OrderSize =
  { readonly side: "sell"; readonly units: bigint } | { readonly side: "buy"; readonly lamports: bigint };

/** The size of an order's spec (null: a sell with nothing to sell). */
export function sizeOf(
  side: "buy" | "sell",
  amount: OrderAmount,
  sizeUnits: bigint | null,
): OrderSize | null {
  if (side === "buy") return amount.kind === "sol" ? { side, lamports: amount.lamports } : null;
  return sizeUnits === null || sizeUnits <= 0n ? null : { side, units: sizeUnits };
}

/** A key naming a size: orders of one mint with the same size share one quote per state change. */
export function sizeKey(size: OrderSize): string {
  return size.side === "sell" ? `s${size.units}` : `b${size.lamports}`;
}

/** The observation of `size` on `venue`; null when the venue cannot quote it (too small, beyond reserves). */
export function observeVenue(size: OrderSize, venue: VenueState, decimals: number): Observation | null {
  try {
    const sell = size.side === "sell";
    const q = quoteTrade({
      action: size.side,
      amount: sell ? { kind: "tokens", units: size.units } : { kind: "sol", lamports: size.lamports },
      venue,
      slippageBps: 0n,
    });
    const f = quoteMoves(q, venue);
    // A sell moves the tokens it names; a buy, the tokens its SOL buys.
    const tokens = sell ? size.units : f.tokens;
    const price = priceOf(f.sol, tokens, decimals);
    return price === null ? null : { price, solOut: sell ? f.sol : null, moved: { sol: f.sol, tokens } };
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** The observation of `size` on a routed read. */
export function observe(size: OrderSize, read: TradeRead, configs: TradeConfigs): Observation | null {
  return observerOf(read, configs)(size);
}

/**
 * Observes sizes on one routed read: the venue state is derived once, not once per size (an evaluation quotes
 * several sizes of one state).
 */
export function observerOf(read: TradeRead, configs: TradeConfigs): (size: OrderSize) => Observation | null {
  const venue = venueStateOf(read, configs);
  return (size) => {
    const o = observeVenue(size, venue, read.decimals);
    // Fields listed rather than spread: a spread copy costs more than the quote here.
    return o === null ? null : { price: o.price, solOut: o.solOut, moved: o.moved, venue: read.venue };
  };
}
