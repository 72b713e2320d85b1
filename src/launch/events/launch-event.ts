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

/** What a pool trade's event reports, before the reserves after it are derived (poolTradeEvent). */
export type PoolTradeFields = Omit<
  PoolTradeEvent,
  "kind" | "poolBaseReservesAfter" | "poolQuoteReservesAfter"
> & {
  /** buy: `quote_amount_in_with_lp_fee`; sell: `quote_amount_out_without_lp_fee` (what the quote vault moves). */
  quoteVaultAmount: bigint;
};

/** The `pool_trade` event of `f`, its reserves after the trade derived from the event's own fields. */
export function poolTradeEvent(f: PoolTradeFields): PoolTradeEvent {
  return {
    kind: "pool_trade",
    isBuy: f.isBuy,
    pool: f.pool,
    user: f.user,
    coinCreator: f.coinCreator,
    baseAmount: f.baseAmount,
    quoteAmount: f.quoteAmount,
    poolBaseReservesBefore: f.poolBaseReservesBefore,
    poolQuoteReservesBefore: f.poolQuoteReservesBefore,
    // A buy's quote vault receives the swap amount plus the LP fee (protocol and creator fees go elsewhere); on a
    // sell the LP fee stays in the pool: the vault pays out the swap amount without it.
    poolBaseReservesAfter: f.isBuy
      ? f.poolBaseReservesBefore - f.baseAmount
      : f.poolBaseReservesBefore + f.baseAmount,
    poolQuoteReservesAfter: f.isBuy
      ? f.poolQuoteReservesBefore + f.quoteVaultAmount
      : f.poolQuoteReservesBefore - f.quoteVaultAmount,
    cashback: f.cashback,
    cashbackFeeBasisPoints: f.cashbackFeeBasisPoints,
    baseSupply: f.baseSupply,
    ixName: f.ixName,
    timestamp: f.timestamp,
  };
}

/** Every event the market stream decodes. */
export type LaunchEvent =
  | CurveCreateEvent
  | CurveTradeEvent
  | PostCompleteBuyEvent
  | CurveCompleteEvent
  | MigrationEvent
  | PoolTradeEvent;
