/**
 * The swap program's `BuyEvent` / `SellEvent` bodies read directly, without the SDK's borsh coder, as
 * trade-event-direct.ts reads the curve's TradeEvent: the coder builds a BN or PublicKey per field and the
 * event converts each back, most of the cost of decoding a pool trade's logs. Each body is walked once along
 * the fields of the swap SDK IDL's event (`launchSwapSdk.pumpAmmJson`, checked at load: `DIRECT_POOL_BUY_DECODE`,
 * `DIRECT_POOL_SELL_DECODE`) and only the fields the `pool_trade` event uses are converted.
 *
 * Read directly: a body that is exactly that IDL's layout (ending at `base_supply`), alone or followed by the
 * 24 bytes the October 2026 upgrade's swap v2 trades append (`holder_rewards_bps`, `holder_rewards`,
 * `creator_fee_unclaimed`: pump-public-docs' `idl/pump_amm.json` and `PUMP_SWAP_TRADE_V2.md`, see
 * shared/reference/program-upgrade-2026-10.md; the localnet emulates both: `localnet/programs/launchswap/swap.ts`
 * logs v1 trades with no tail, `swap-v2.ts` logs v2 trades with `swapEventTail`, localnet/programs/upgrade/events.ts).
 * The SDK's decoder reads these bodies with its own vendored copy of the IDL, which ends at `holder_rewards`
 * (zero-padded when missing) and skips what follows; the event uses none of those fields. Any other body
 * (another tail, a cut body, a bad bool or string) is left to the SDK's decoder (null: fall back).
 */
import { launchSdk, launchSwapSdk } from "../sdk.js";
import { EventLayout, idlFields, sameFields, type FieldType } from "./event-layout.js";
import { poolTradeEvent, type PoolTradeEvent } from "./launch-event.js";

type Fields = readonly (readonly [string, FieldType])[];

// Runs of fields the two events share, in the IDL's order.
const RESERVES = [
  ["user_base_token_reserves", "u64"],
  ["user_quote_token_reserves", "u64"],
  ["pool_base_token_reserves", "u64"],
  ["pool_quote_token_reserves", "u64"],
] as const;
const FEES = [
  ["lp_fee_basis_points", "u64"],
  ["lp_fee", "u64"],
  ["protocol_fee_basis_points", "u64"],
  ["protocol_fee", "u64"],
] as const;
const ACCOUNTS = [
  ["pool", "pubkey"],
  ["user", "pubkey"],
  ["user_base_token_account", "pubkey"],
  ["user_quote_token_account", "pubkey"],
  ["protocol_fee_recipient", "pubkey"],
  ["protocol_fee_recipient_token_account", "pubkey"],
  ["coin_creator", "pubkey"],
  ["coin_creator_fee_basis_points", "u64"],
  ["coin_creator_fee", "u64"],
] as const;
const LAST = [
  ["cashback_fee_basis_points", "u64"],
  ["cashback", "u64"],
  ["buyback_fee_basis_points", "u64"],
  ["buyback_fee", "u64"],
  ["virtual_quote_reserves", "i128"],
  ["can_boost", "bool"],
  ["base_supply", "u64"],
] as const;

// The IDL's `BuyEvent` fields, in order.
const BUY_FIELDS = [
  ["timestamp", "i64"],
  ["base_amount_out", "u64"],
  ["max_quote_amount_in", "u64"],
  ...RESERVES,
  ["quote_amount_in", "u64"],
  ...FEES,
  ["quote_amount_in_with_lp_fee", "u64"],
  ["user_quote_amount_in", "u64"],
  ...ACCOUNTS,
  ["track_volume", "bool"],
  ["total_unclaimed_tokens", "u64"],
  ["total_claimed_tokens", "u64"],
  ["current_sol_volume", "u64"],
  ["last_update_timestamp", "i64"],
  ["min_base_amount_out", "u64"],
  ["ix_name", "string"],
  ...LAST,
] as const satisfies Fields;

// The IDL's `SellEvent` fields, in order.
const SELL_FIELDS = [
  ["timestamp", "i64"],
  ["base_amount_in", "u64"],
  ["min_quote_amount_out", "u64"],
  ...RESERVES,
  ["quote_amount_out", "u64"],
  ...FEES,
  ["quote_amount_out_without_lp_fee", "u64"],
  ["user_quote_amount_out", "u64"],
  ...ACCOUNTS,
  ...LAST,
] as const satisfies Fields;

/**
 * What the October 2026 upgrade's swap v2 trades append past the swap SDK IDL's `base_supply`:
 * holder_rewards_bps u64, holder_rewards u64, creator_fee_unclaimed u64. The v1 trades append nothing.
 */
const UPGRADE_TAIL = 24;
// The two fields the SDK decoder's vendored IDL has past `base_supply` (it pads them with zeros when missing).
const DECODER_EXTRA = [
  ["holder_rewards_bps", "u64"],
  ["holder_rewards", "u64"],
] as const;

// The IDL the SDK's decodeBuyEventAmm / decodeSellEventAmm decode with (the pump SDK's vendored pump_amm IDL).
const decoderIdl = (launchSdk.getPumpAmmProgram(null as never) as unknown as { rawIdl: unknown }).rawIdl;
/** Whether both IDLs describe `name` as `fields` walks it (the decoder's with its two holder-reward fields after). */
const matches = (name: string, fields: Fields): boolean =>
  sameFields(idlFields(launchSwapSdk.pumpAmmJson, name), fields) &&
  sameFields(idlFields(decoderIdl, name), [...fields, ...DECODER_EXTRA]);

/** Whether `BuyEvent` bodies are read directly: both installed SDKs' IDLs have the layout `BUY_FIELDS` walks. */
export const DIRECT_POOL_BUY_DECODE: boolean = matches("BuyEvent", BUY_FIELDS);
/** Whether `SellEvent` bodies are read directly: both installed SDKs' IDLs have the layout `SELL_FIELDS` walks. */
export const DIRECT_POOL_SELL_DECODE: boolean = matches("SellEvent", SELL_FIELDS);

const buy = new EventLayout<BuyName>(BUY_FIELDS, [0, UPGRADE_TAIL]);
const sell = new EventLayout<SellName>(SELL_FIELDS, [0, UPGRADE_TAIL]);

type BuyName = (typeof BUY_FIELDS)[number][0];
type SellName = (typeof SELL_FIELDS)[number][0];
/** The fields both events name alike. */
type Shared = BuyName & SellName;

/**
 * The `pool_trade` event of a body `layout` has walked: the fields both events name alike, and the side's own
 * (`base`, `quote`: the swap amounts; `vault`: what the quote vault moved).
 */
function poolTrade<N extends string>(
  layout: EventLayout<N | Shared>,
  body: Buffer,
  side: { isBuy: boolean; base: N; quote: N; vault: N; ixName: string },
): PoolTradeEvent {
  return poolTradeEvent({
    isBuy: side.isBuy,
    pool: layout.key(body, "pool"),
    user: layout.key(body, "user"),
    coinCreator: layout.key(body, "coin_creator"),
    baseAmount: layout.u64(body, side.base),
    quoteAmount: layout.u64(body, side.quote),
    poolBaseReservesBefore: layout.u64(body, "pool_base_token_reserves"),
    poolQuoteReservesBefore: layout.u64(body, "pool_quote_token_reserves"),
    quoteVaultAmount: layout.u64(body, side.vault),
    cashback: layout.u64(body, "cashback"),
    cashbackFeeBasisPoints: layout.u64(body, "cashback_fee_basis_points"),
    baseSupply: layout.u64(body, "base_supply"),
    ixName: side.ixName,
    timestamp: layout.i64(body, "timestamp"),
  });
}

/**
 * The `pool_trade` event of a BuyEvent body (after the discriminator), the same object as `poolBuyBySdk`;
 * null when the body is not exactly the layout (with or without the upgrade's tail) or the IDLs differ.
 */
export function poolBuyDirect(body: Buffer): PoolTradeEvent | null {
  if (!DIRECT_POOL_BUY_DECODE || !buy.walk(body)) return null;
  return poolTrade(buy, body, {
    isBuy: true,
    base: "base_amount_out",
    quote: "quote_amount_in",
    vault: "quote_amount_in_with_lp_fee",
    ixName: buy.text(body, "ix_name"),
  });
}

/**
 * The `pool_trade` event of a SellEvent body (after the discriminator), the same object as `poolSellBySdk`;
 * null when the body is not exactly the layout (with or without the upgrade's tail) or the IDLs differ.
 */
export function poolSellDirect(body: Buffer): PoolTradeEvent | null {
  if (!DIRECT_POOL_SELL_DECODE || !sell.walk(body)) return null;
  return poolTrade(sell, body, {
    isBuy: false,
    base: "base_amount_in",
    quote: "quote_amount_out",
    vault: "quote_amount_out_without_lp_fee",
    ixName: "sell",
  });
}
