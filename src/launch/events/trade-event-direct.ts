/**
 * The bonding-curve program's `TradeEvent` body read directly, without the SDK's borsh coder: that coder
 * builds a BN or PublicKey per field through its layout tree and the event then converts each back
 * (BN → string → bigint, PublicKey → base58), most of the cost of decoding a trade's logs, which every order
 * trigger, copy order and stream message starts with. Here the body is walked once along the fields of the
 * SDK IDL's `TradeEvent` (checked against the IDL at load: `DIRECT_TRADE_DECODE`) and only the fields the
 * `curve_trade` event uses are converted. Only a body that is exactly the full layout is read, alone or with
 * the October 2026 upgrade's `creator_fee_unclaimed` (a u64 the program appends after `holder_rewards`:
 * pump-public-docs' `idl/pump.json`, shared/reference/program-upgrade-2026-10.md), which the SDK's coder skips
 * as trailing bytes and the event does not carry. Any other body (an older deployment's shorter layout, which
 * the SDK pads; other trailing bytes; a bad bool or string) is left to the SDK's decoder (null: fall back).
 */
import { WSOL_MINT } from "../programs.js";
import { launchSdk } from "../sdk.js";
import { EventLayout, idlFields, sameFields, type FieldType } from "./event-layout.js";
import type { CurveTradeEvent } from "./launch-event.js";

// The IDL's `TradeEvent` fields, in order, with the type each is walked as
// ("shareholders" is vec<Shareholder>, fixed-size items).
const TRADE_FIELDS = [
  ["mint", "pubkey"],
  ["sol_amount", "u64"],
  ["token_amount", "u64"],
  ["is_buy", "bool"],
  ["user", "pubkey"],
  ["timestamp", "i64"],
  ["virtual_sol_reserves", "u64"],
  ["virtual_token_reserves", "u64"],
  ["real_sol_reserves", "u64"],
  ["real_token_reserves", "u64"],
  ["fee_recipient", "pubkey"],
  ["fee_basis_points", "u64"],
  ["fee", "u64"],
  ["creator", "pubkey"],
  ["creator_fee_basis_points", "u64"],
  ["creator_fee", "u64"],
  ["track_volume", "bool"],
  ["total_unclaimed_tokens", "u64"],
  ["total_claimed_tokens", "u64"],
  ["current_sol_volume", "u64"],
  ["last_update_timestamp", "i64"],
  ["ix_name", "string"],
  ["mayhem_mode", "bool"],
  ["cashback_fee_basis_points", "u64"],
  ["cashback", "u64"],
  ["buyback_fee_basis_points", "u64"],
  ["buyback_fee", "u64"],
  ["shareholders", "vec"],
  ["quote_mint", "pubkey"],
  ["quote_amount", "u64"],
  ["virtual_quote_reserves", "u64"],
  ["real_quote_reserves", "u64"],
  ["holder_rewards_bps", "u64"],
  ["holder_rewards", "u64"],
] as const satisfies readonly (readonly [string, FieldType])[];

// The IDL's `Shareholder` struct, walked as a fixed-size item: address pubkey, share_bps u16.
const SHAREHOLDER_FIELDS = [
  ["address", "pubkey"],
  ["share_bps", "u16"],
] as const;
const SHAREHOLDER_SIZE = 32 + 2;
/** `creator_fee_unclaimed`: the u64 the October 2026 upgrade appends to the SDK IDL's layout. */
const UPGRADE_TAIL = 8;

/**
 * Whether the installed SDK's IDL describes `TradeEvent` (and its `Shareholder` items) exactly as
 * `TRADE_FIELDS` walks it: the same field names and types in the same order. Checked once at load; any
 * difference (an SDK upgrade) leaves the SDK's decoder in use for every body.
 */
export const DIRECT_TRADE_DECODE: boolean =
  sameFields(
    idlFields(launchSdk.pumpIdl, "TradeEvent"),
    TRADE_FIELDS.map(([name, type]) => [
      name,
      type === "vec" ? { vec: { defined: { name: "Shareholder" } } } : type,
    ]),
  ) && sameFields(idlFields(launchSdk.pumpIdl, "Shareholder"), SHAREHOLDER_FIELDS);

const trade = new EventLayout<(typeof TRADE_FIELDS)[number][0]>(
  TRADE_FIELDS,
  [0, UPGRADE_TAIL],
  SHAREHOLDER_SIZE,
);
const WSOL = WSOL_MINT.toBase58();

/**
 * The `curve_trade` event of a TradeEvent body (the bytes after the discriminator), the same object the SDK
 * path makes; null when the body is not exactly the full layout (with or without the upgrade's
 * `creator_fee_unclaimed`) or the IDL differs (use the SDK).
 */
export function decodeTradeEventDirect(body: Buffer): CurveTradeEvent | null {
  if (!DIRECT_TRADE_DECODE || !trade.walk(body)) return null;
  // Same keys in the same order as the SDK path's object (event-decoder.ts).
  return {
    kind: "curve_trade",
    mint: trade.key(body, "mint"),
    user: trade.key(body, "user"),
    isBuy: trade.bool(body, "is_buy"),
    solAmount: trade.u64(body, "sol_amount"),
    tokenAmount: trade.u64(body, "token_amount"),
    virtualSolReserves: trade.u64(body, "virtual_sol_reserves"),
    virtualTokenReserves: trade.u64(body, "virtual_token_reserves"),
    realSolReserves: trade.u64(body, "real_sol_reserves"),
    realTokenReserves: trade.u64(body, "real_token_reserves"),
    mayhemMode: trade.bool(body, "mayhem_mode"),
    cashback: trade.u64(body, "cashback"),
    cashbackFeeBasisPoints: trade.u64(body, "cashback_fee_basis_points"),
    ixName: trade.text(body, "ix_name"),
    timestamp: trade.i64(body, "timestamp"),
    // As event-decoder.ts's quoteMintName: SOL-quoted curves store the zero key, named as wrapped SOL.
    quoteMint: trade.zeroKey(body, "quote_mint") ? WSOL : trade.key(body, "quote_mint"),
    // The full layout always carries quote_amount (only older, shorter layouts fall back to sol_amount).
    quoteAmount: trade.u64(body, "quote_amount"),
  };
}
