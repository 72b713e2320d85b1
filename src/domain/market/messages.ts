/**
 * The stream's messages: flat JSON objects with `type`; every integer amount is a decimal string,
 * slots and timestamps are JSON numbers. Built from the programs' decoded events (launch/events/).
 */
import { BONDING_CURVE, LAUNCHSWAP, type Venue } from "../../core/venues.js";
import { formatLamportsAsSol } from "../../core/amounts.js";
import type {
  CurveCompleteEvent,
  CurveCreateEvent,
  CurveTradeEvent,
  MigrationEvent,
  PoolTradeEvent,
  PostCompleteBuyEvent,
} from "../../launch/events/launch-event.js";

/** Wrapped SOL: the quote mint named for SOL-quoted coins and pools. */
const WSOL = "So11111111111111111111111111111111111111112";

/** Fields every event message carries. */
interface Common {
  signature: string;
  slot: number;
  mint: string;
  /** Block time (unix seconds) as the program's event reports it. */
  timestamp: number;
}

/** A token created on the bonding curve (`CreateEvent`). */
export interface NewTokenMessage extends Common {
  type: "new_token";
  name: string;
  symbol: string;
  uri: string;
  creator: string;
  /** The wallet that signed the creation. */
  trader: string;
  bonding_curve: string;
  virtual_sol_reserves: string;
  virtual_token_reserves: string;
  real_token_reserves: string;
  token_total_supply: string;
  market_cap_sol: string;
  is_mayhem: boolean;
  is_cashback: boolean;
}

/** A buy or sell on the bonding curve or the swap pool. */
export interface TradeMessage extends Common {
  type: "trade";
  venue: Venue;
  /** The pool address on `launchswap`, null on the curve. */
  pool: string | null;
  trader: string;
  side: "buy" | "sell";
  /**
   * What the trade moved in the quote mint's units, fees excluded (lamports for SOL-quoted coins): the
   * buyer's total, a synthetic migration's pool part included. Same value as `quote_amount`.
   */
  sol_amount: string;
  /** Token atomic units: the buyer's total, a synthetic migration's pool part included. */
  token_amount: string;
  /** The mint `quote_amount` is counted in (wrapped SOL for SOL-quoted coins). */
  quote_mint: string;
  /** The trade's quote amount in `quote_mint` units, fees excluded (the buyer's total). */
  quote_amount: string;
  /** Of `token_amount`, what a v3 buy that completed the curve bought past it (PostCompleteBuyEvent); else "0". */
  post_complete_token_amount: string;
  /** Of `quote_amount`, what that part cost; else "0". */
  post_complete_quote_amount: string;
  /** Price-defining reserves after the trade: the curve's virtual reserves, or the pool's vault reserves. */
  virtual_sol_reserves: string;
  virtual_token_reserves: string;
  /** Real reserves after the trade (the curve's real reserves; the pool's vault reserves). */
  real_sol_reserves: string;
  real_token_reserves: string;
  market_cap_sol: string;
  is_mayhem: boolean;
  is_cashback: boolean;
  /** True when this trade sold out the curve (`CompleteEvent` in the same transaction). */
  curve_complete: boolean;
}

/** A complete curve migrated to its swap pool (`CompletePumpAmmMigrationEvent`). */
export interface MigrationMessage extends Common {
  type: "migration";
  pool: string;
  /** The wallet that signed the migration. */
  trader: string;
  /** Lamports moved into the pool (after the migration fee). */
  sol_amount: string;
  /** Tokens moved into the pool. */
  token_amount: string;
  pool_migration_fee: string;
}

/**
 * A curve sold out (`CompleteEvent`), sent after the trade that completed it and before its migration:
 * between the two, trades of the mint are refused (awaiting_migration) until the pool exists.
 */
export interface CompleteMessage extends Common {
  type: "complete";
  bonding_curve: string;
  /** The wallet whose buy completed the curve. */
  trader: string;
}

/** Every event message. */
export type MarketMessage = NewTokenMessage | TradeMessage | CompleteMessage | MigrationMessage;

/** Where a message came from. */
export interface TxContext {
  signature: string;
  slot: number;
}

/** What a pool trade needs that its event does not carry. */
export interface PoolInfo {
  mint: string;
  isMayhem: boolean;
}

/** Market cap in SOL: price (sol reserves / token reserves) × supply, in lamports then formatted as SOL. */
export function marketCapSol(solReserves: bigint, tokenReserves: bigint, supply: bigint): string {
  if (tokenReserves <= 0n) return formatLamportsAsSol(0n);
  return formatLamportsAsSol((solReserves * supply) / tokenReserves);
}

/** A `new_token` message. */
export function newTokenMessage(e: CurveCreateEvent, tx: TxContext): NewTokenMessage {
  return {
    type: "new_token",
    signature: tx.signature,
    slot: tx.slot,
    mint: e.mint,
    timestamp: Number(e.timestamp),
    name: e.name,
    symbol: e.symbol,
    uri: e.uri,
    creator: e.creator,
    trader: e.user,
    bonding_curve: e.bondingCurve,
    virtual_sol_reserves: e.virtualSolReserves.toString(),
    virtual_token_reserves: e.virtualTokenReserves.toString(),
    real_token_reserves: e.realTokenReserves.toString(),
    token_total_supply: e.tokenTotalSupply.toString(),
    market_cap_sol: marketCapSol(e.virtualSolReserves, e.virtualTokenReserves, e.tokenTotalSupply),
    is_mayhem: e.isMayhemMode,
    is_cashback: e.isCashbackEnabled,
  };
}

/**
 * A `trade` message of the bonding curve. The curve's TradeEvent does not carry the token supply:
 * `curveSupply` is the Global's `token_total_supply` (the same for every curve the program creates).
 */
export function curveTradeMessage(
  e: CurveTradeEvent,
  tx: TxContext,
  curveSupply: bigint,
  completed: boolean,
  postComplete: PostCompleteBuyEvent | null = null,
): TradeMessage {
  const extraTokens = postComplete?.baseOut ?? 0n;
  const extraQuote = postComplete?.quoteIn ?? 0n;
  const quote = (e.quoteAmount + extraQuote).toString();
  return {
    type: "trade",
    signature: tx.signature,
    slot: tx.slot,
    mint: e.mint,
    timestamp: Number(e.timestamp),
    venue: BONDING_CURVE,
    pool: null,
    trader: e.user,
    side: e.isBuy ? "buy" : "sell",
    sol_amount: quote,
    token_amount: (e.tokenAmount + extraTokens).toString(),
    quote_mint: e.quoteMint,
    quote_amount: quote,
    post_complete_token_amount: extraTokens.toString(),
    post_complete_quote_amount: extraQuote.toString(),
    virtual_sol_reserves: e.virtualSolReserves.toString(),
    virtual_token_reserves: e.virtualTokenReserves.toString(),
    real_sol_reserves: e.realSolReserves.toString(),
    real_token_reserves: e.realTokenReserves.toString(),
    market_cap_sol: marketCapSol(e.virtualSolReserves, e.virtualTokenReserves, curveSupply),
    is_mayhem: e.mayhemMode,
    is_cashback: e.cashbackFeeBasisPoints > 0n || e.cashback > 0n,
    curve_complete: completed,
  };
}

/** A `trade` message of the swap pool (`pool` resolved to its base mint). */
export function poolTradeMessage(e: PoolTradeEvent, tx: TxContext, pool: PoolInfo): TradeMessage {
  const sol = e.poolQuoteReservesAfter.toString();
  const tokens = e.poolBaseReservesAfter.toString();
  return {
    type: "trade",
    signature: tx.signature,
    slot: tx.slot,
    mint: pool.mint,
    timestamp: Number(e.timestamp),
    venue: LAUNCHSWAP,
    pool: e.pool,
    trader: e.user,
    side: e.isBuy ? "buy" : "sell",
    sol_amount: e.quoteAmount.toString(),
    token_amount: e.baseAmount.toString(),
    // The service follows WSOL-quoted pools only (launch/trade-accounts.ts).
    quote_mint: WSOL,
    quote_amount: e.quoteAmount.toString(),
    post_complete_token_amount: "0",
    post_complete_quote_amount: "0",
    virtual_sol_reserves: sol,
    virtual_token_reserves: tokens,
    real_sol_reserves: sol,
    real_token_reserves: tokens,
    market_cap_sol: marketCapSol(e.poolQuoteReservesAfter, e.poolBaseReservesAfter, e.baseSupply),
    is_mayhem: pool.isMayhem,
    is_cashback: e.cashbackFeeBasisPoints > 0n || e.cashback > 0n,
    curve_complete: false,
  };
}

/** A `complete` message. */
export function completeMessage(e: CurveCompleteEvent, tx: TxContext): CompleteMessage {
  return {
    type: "complete",
    signature: tx.signature,
    slot: tx.slot,
    mint: e.mint,
    timestamp: Number(e.timestamp),
    bonding_curve: e.bondingCurve,
    trader: e.user,
  };
}

/** A `migration` message. */
export function migrationMessage(e: MigrationEvent, tx: TxContext): MigrationMessage {
  return {
    type: "migration",
    signature: tx.signature,
    slot: tx.slot,
    mint: e.mint,
    timestamp: Number(e.timestamp),
    pool: e.pool,
    trader: e.user,
    sol_amount: e.solAmount.toString(),
    token_amount: e.mintAmount.toString(),
    pool_migration_fee: e.poolMigrationFee.toString(),
  };
}
