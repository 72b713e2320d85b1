/**
 * What one venue state says about an order's size: its price (SOL per whole token, fees included) and, for a
 * sell, the SOL it gets, by the same launch-layer math a trade's quote uses (curve-quote.ts, swap-quote.ts
 * through quoteTrade and quoteFigures). Pure.
 */
import { PublicKey } from "@solana/web3.js";
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
  return observerOn(venueStateOf(read, configs), read);
}

/** Observes sizes on `venue`, the venue state of `read` (venueStateOf). */
export function observerOn(
  venue: VenueState,
  read: Pick<TradeRead, "decimals" | "venue">,
): (size: OrderSize) => Observation | null {
  return (size) => {
    const o = observeVenue(size, venue, read.decimals);
    // Fields listed rather than spread: a spread copy costs more than the quote here.
    return o === null ? null : { price: o.price, solOut: o.solOut, moved: o.moved, venue: read.venue };
  };
}

/**
 * A text naming all an observation of any size can read of `venue` with the mint's `decimals`: two states with
 * the same key observe every size alike (the book remembers by it which buckets a state leaves unchanged). Every
 * primitive field of the state and of its plain-object parts is in it, more than the quote reads (a key is then
 * only more specific), so a field a future quote reads is covered without this function knowing it. Null when
 * the state holds a part it does not understand: such a state is never taken for another.
 */
export function stateKey(venue: VenueState, decimals: number): string | null {
  const fields = fieldsText(venue, 0);
  return fields === null ? null : `${decimals}${fields}`;
}

function fieldsText(o: object, depth: number): string | null {
  let s = "";
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k];
    // Named and typed: two different states never share a key.
    if (typeof v === "bigint") s += `|${k}=${v}n`;
    else if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") s += `|${k}=${v}`;
    else if (v === undefined || v === null) s += `|${k}=-`;
    // Plain parts (curve, fees, reserves, synthetic inputs).
    else if (typeof v === "object" && depth < 3 && Object.getPrototypeOf(v) === Object.prototype) {
      const inner = fieldsText(v, depth + 1);
      if (inner === null) return null;
      s += `|${k}{${inner}}`;
    }
    // An address (the curve's creator) names an account, not a price input; the fees it implies are in `fees`.
    else if (!(v instanceof PublicKey)) return null;
  }
  return s;
}
