/**
 * The order model: kinds, states, levels and the parameters an order keeps. Prices are exact integers:
 * SOL × 10^18 per whole token (PRICE_DECIMALS), so a launch token priced at a few lamports per whole token
 * still compares exactly.
 */

/** The order kinds of the per-mint book (snipe and copy are standing orders, below). */
export const ORDER_KINDS = [
  "limit",
  "take_profit",
  "stop_loss",
  "trailing_stop",
  "bracket",
  "on_migration",
] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
/**
 * Standing orders: they stay open and fire once per matching token (snipe.ts, snipe-engine.ts) or per followed
 * trade (copy.ts, copy-engine.ts).
 */
export const STANDING_KINDS = ["snipe", "copy"] as const;

export const ORDER_STATES = ["open", "triggered", "filled", "failed", "cancelled", "expired"] as const;
export type OrderState = (typeof ORDER_STATES)[number];
/** States an order leaves no more. */
export const FINAL_STATES: readonly OrderState[] = ["filled", "failed", "cancelled", "expired"];

/**
 * Where the entry of percent levels came from: `request` (the body's entry_price) or `position` (the average
 * entry price of the wallet's position in the mint, from the positions ledger).
 */
export type EntrySource = "request" | "position";

/** Decimals of a price: SOL per whole token × 10^18. */
export const PRICE_DECIMALS = 18;

/**
 * When a level is crossed: `above` fires at price ≥ level (take-profit, limit sell), `below` at price ≤ level
 * (stop-loss, limit buy).
 */
export type Direction = "above" | "below";

/** A level as the request gave it, resolved to what the evaluation compares. */
export type Level =
  /** SOL × 10^18 per whole token of the order's size, fees included. */
  | { readonly kind: "price"; readonly price: bigint }
  /** SOL the order's amount would get (sells), lamports. */
  | { readonly kind: "sol_out"; readonly lamports: bigint };

/** One trigger of an order: a level and the side of it that fires. */
export interface Trigger {
  readonly name: "limit" | "take_profit" | "stop_loss";
  readonly direction: Direction;
  readonly level: Level;
  /** The request's form, echoed in the answer (e.g. { percent: "50" } or { price: "0.00000003" }). */
  readonly asked: Readonly<Record<string, string>>;
}

/** The amount an order trades. */
export type OrderAmount =
  | { readonly kind: "sol"; readonly lamports: bigint }
  | { readonly kind: "tokens"; readonly units: bigint }
  | { readonly kind: "percent"; readonly hundredths: bigint };

/** An order's parameters, as validated at creation (stored as JSON text, see spec-json.ts). */
export interface OrderSpec {
  readonly kind: OrderKind;
  readonly side: "buy" | "sell";
  readonly mint: string;
  readonly amount: OrderAmount;
  /** The request's amount text ("0.1", "1000000", "100%"). */
  readonly amountText: string;
  /**
   * Token units the level's price is computed for (sells): the amount's units, or the percentage of the
   * wallet's balance at creation. Null for buys (their size is `amount` SOL).
   */
  readonly sizeUnits: bigint | null;
  /** The fixed triggers (limit, take_profit, stop_loss, both legs of a bracket). */
  readonly triggers: readonly Trigger[];
  /** trailing_stop: hundredths of a percent below the highest price seen. */
  readonly trailHundredths: bigint | null;
  /** The entry price the percent levels were computed from (SOL × 10^18 per whole token), if any. */
  readonly entryPrice: bigint | null;
  /** Where entryPrice came from (absent in orders stored before it was kept: their entry was the price then). */
  readonly entrySource?: EntrySource | null;
  readonly slippageBps: bigint;
  readonly priorityFeeLamports: bigint | null;
  readonly tipLamports: bigint | null;
  /** How many times a sell that failed on chain is sent again with fresh state. */
  readonly maxRetries: number;
}

/** What the evaluation of one order at one price decides. */
export type Decision =
  | { readonly fire: false; /** trailing_stop: a new highest price to remember. */ readonly peak?: bigint }
  | { readonly fire: true; readonly trigger: string };

/**
 * The trade a standing order (snipe, copy) sends once, as the other orders' fire takes it: a limit order with no
 * trigger, entry or retry, its size in `lamports` (0 when `amountText` is a token amount) and its own fee fields.
 */
export function standingTradeSpec(
  own: Pick<OrderSpec, "slippageBps" | "priorityFeeLamports" | "tipLamports">,
  side: "buy" | "sell",
  mint: string,
  lamports: bigint,
  amountText: string,
): OrderSpec {
  return {
    kind: "limit",
    side,
    mint,
    amount: { kind: "sol", lamports },
    amountText,
    sizeUnits: null,
    triggers: [],
    trailHundredths: null,
    entryPrice: null,
    slippageBps: own.slippageBps,
    priorityFeeLamports: own.priorityFeeLamports,
    tipLamports: own.tipLamports,
    maxRetries: 0,
  };
}
