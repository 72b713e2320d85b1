/**
 * The launch programs' events as the stream needs them: decoded by the official SDKs' IDL coders
 * (event-decoder.ts; the curve TradeEvent read directly, trade-event-direct.ts), flattened to base-58
 * addresses and bigint amounts.
 */

/** The bonding-curve program's `CreateEvent`. */
export interface CurveCreateEvent {
  kind: "create";
  mint: string;
  name: string;
  symbol: string;
  uri: string;
  creator: string;
  /** The signer who paid for the creation. */
  user: string;
  bondingCurve: string;
  virtualTokenReserves: bigint;
  virtualSolReserves: bigint;
  realTokenReserves: bigint;
  tokenTotalSupply: bigint;
  isMayhemMode: boolean;
  isCashbackEnabled: boolean;
  timestamp: bigint;
  /** The mint's token program, its curve's quote mint, creator fee rate and holder-reward flag (the curve's initial state). */
  tokenProgram: string;
  quoteMint: string;
  creatorFeeBps: bigint;
  isHolderReward: boolean;
}

/** The bonding-curve program's `TradeEvent` (reserves after the trade). */
export interface CurveTradeEvent {
  kind: "curve_trade";
  mint: string;
  user: string;
  isBuy: boolean;
  /** Lamports to or from the curve, fees excluded, as the event reports it. */
  solAmount: bigint;
  tokenAmount: bigint;
  virtualSolReserves: bigint;
  virtualTokenReserves: bigint;
  realSolReserves: bigint;
  realTokenReserves: bigint;
  mayhemMode: boolean;
  /** Cashback paid to the trader's accumulator instead of the creator fee (cashback coins). */
  cashback: bigint;
  cashbackFeeBasisPoints: bigint;
  ixName: string;
  timestamp: bigint;
  /** The coin's quote mint (wrapped SOL for SOL-quoted coins, whose curves store the zero key). */
  quoteMint: string;
  /** The event's quote amount, in the quote mint's units (lamports for SOL-quoted coins). */
  quoteAmount: bigint;
}

/**
 * The bonding-curve program's `PostCompleteBuyEvent`: the pool part of a v3 buy that crossed completion
 * (synthetic migration); the buyer's total is the TradeEvent's amounts plus these.
 */
export interface PostCompleteBuyEvent {
  kind: "post_complete_buy";
  mint: string;
  user: string;
  quoteMint: string;
  baseOut: bigint;
  /** Quote the pool part cost, fees excluded, in the quote mint's units. */
  quoteIn: bigint;
  timestamp: bigint;
}

/** The bonding-curve program's `CompleteEvent` (the curve sold out in this transaction). */
export interface CurveCompleteEvent {
  kind: "complete";
  mint: string;
  user: string;
  bondingCurve: string;
  timestamp: bigint;
}

/** The bonding-curve program's `CompletePumpAmmMigrationEvent` (the `migrate` instruction). */
export interface MigrationEvent {
  kind: "migration";
  mint: string;
  user: string;
  pool: string;
  bondingCurve: string;
  /** Tokens moved into the pool. */
  mintAmount: bigint;
  /** Lamports moved into the pool (after the migration fee). */
  solAmount: bigint;
  poolMigrationFee: bigint;
  timestamp: bigint;
}

/** The swap program's `BuyEvent` / `SellEvent` (pool reserves before the trade, as the program reports them). */
export interface PoolTradeEvent {
  kind: "pool_trade";
  isBuy: boolean;
  pool: string;
  user: string;
  coinCreator: string;
  baseAmount: bigint;
  /** buy: `quote_amount_in`; sell: `quote_amount_out` (the swap amount, fees excluded). */
  quoteAmount: bigint;
  poolBaseReservesBefore: bigint;
  poolQuoteReservesBefore: bigint;
  /** Pool reserves after the trade, from the event's own fields (see event-decoder.ts). */
  poolBaseReservesAfter: bigint;
  poolQuoteReservesAfter: bigint;
  cashback: bigint;
  cashbackFeeBasisPoints: bigint;
  baseSupply: bigint;
  ixName: string;
  timestamp: bigint;
}

/** Every event the market stream decodes. */
export type LaunchEvent =
  | CurveCreateEvent
  | CurveTradeEvent
  | PostCompleteBuyEvent
  | CurveCompleteEvent
  | MigrationEvent
  | PoolTradeEvent;
