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
import { isUtf8 } from "node:buffer";
import { encodeBase58 } from "../../core/base58.js";
import { launchSdk, launchSwapSdk } from "../sdk.js";
import type { PoolTradeEvent } from "./launch-event.js";

type FieldType = "pubkey" | "u64" | "i64" | "i128" | "bool" | "string";
type Fields = readonly (readonly [string, FieldType])[];

// The IDL's `BuyEvent` fields, in order.
const BUY_FIELDS = [
  ["timestamp", "i64"],
  ["base_amount_out", "u64"],
  ["max_quote_amount_in", "u64"],
  ["user_base_token_reserves", "u64"],
  ["user_quote_token_reserves", "u64"],
  ["pool_base_token_reserves", "u64"],
  ["pool_quote_token_reserves", "u64"],
  ["quote_amount_in", "u64"],
  ["lp_fee_basis_points", "u64"],
  ["lp_fee", "u64"],
  ["protocol_fee_basis_points", "u64"],
  ["protocol_fee", "u64"],
  ["quote_amount_in_with_lp_fee", "u64"],
  ["user_quote_amount_in", "u64"],
  ["pool", "pubkey"],
  ["user", "pubkey"],
  ["user_base_token_account", "pubkey"],
  ["user_quote_token_account", "pubkey"],
  ["protocol_fee_recipient", "pubkey"],
  ["protocol_fee_recipient_token_account", "pubkey"],
  ["coin_creator", "pubkey"],
  ["coin_creator_fee_basis_points", "u64"],
  ["coin_creator_fee", "u64"],
  ["track_volume", "bool"],
  ["total_unclaimed_tokens", "u64"],
  ["total_claimed_tokens", "u64"],
  ["current_sol_volume", "u64"],
  ["last_update_timestamp", "i64"],
  ["min_base_amount_out", "u64"],
  ["ix_name", "string"],
  ["cashback_fee_basis_points", "u64"],
  ["cashback", "u64"],
  ["buyback_fee_basis_points", "u64"],
  ["buyback_fee", "u64"],
  ["virtual_quote_reserves", "i128"],
  ["can_boost", "bool"],
  ["base_supply", "u64"],
] as const satisfies Fields;

// The IDL's `SellEvent` fields, in order.
const SELL_FIELDS = [
  ["timestamp", "i64"],
  ["base_amount_in", "u64"],
  ["min_quote_amount_out", "u64"],
  ["user_base_token_reserves", "u64"],
  ["user_quote_token_reserves", "u64"],
  ["pool_base_token_reserves", "u64"],
  ["pool_quote_token_reserves", "u64"],
  ["quote_amount_out", "u64"],
  ["lp_fee_basis_points", "u64"],
  ["lp_fee", "u64"],
  ["protocol_fee_basis_points", "u64"],
  ["protocol_fee", "u64"],
  ["quote_amount_out_without_lp_fee", "u64"],
  ["user_quote_amount_out", "u64"],
  ["pool", "pubkey"],
  ["user", "pubkey"],
  ["user_base_token_account", "pubkey"],
  ["user_quote_token_account", "pubkey"],
  ["protocol_fee_recipient", "pubkey"],
  ["protocol_fee_recipient_token_account", "pubkey"],
  ["coin_creator", "pubkey"],
  ["coin_creator_fee_basis_points", "u64"],
  ["coin_creator_fee", "u64"],
  ["cashback_fee_basis_points", "u64"],
  ["cashback", "u64"],
  ["buyback_fee_basis_points", "u64"],
  ["buyback_fee", "u64"],
  ["virtual_quote_reserves", "i128"],
  ["can_boost", "bool"],
  ["base_supply", "u64"],
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

interface IdlTypes {
  types?: { name: string; type: { fields?: { name: string; type: unknown }[] } }[];
}
const fieldsOf = (idl: unknown, name: string) =>
  (idl as IdlTypes).types?.find((t) => t.name === name)?.type.fields;
const same = (a: readonly { name: string; type: unknown }[] | undefined, b: Fields) =>
  a?.length === b.length &&
  b.every(([name, type], i) => a[i]!.name === name && JSON.stringify(a[i]!.type) === JSON.stringify(type));
// The IDL the SDK's decodeBuyEventAmm / decodeSellEventAmm decode with (the pump SDK's vendored pump_amm IDL).
const decoderIdl = (launchSdk.getPumpAmmProgram(null as never) as unknown as { rawIdl: unknown }).rawIdl;
/** Whether both IDLs describe `name` as `fields` walks it (the decoder's with its two holder-reward fields after). */
const matches = (name: string, fields: Fields): boolean =>
  same(fieldsOf(launchSwapSdk.pumpAmmJson, name), fields) &&
  same(fieldsOf(decoderIdl, name), [...fields, ...DECODER_EXTRA]);

/** Whether `BuyEvent` bodies are read directly: both installed SDKs' IDLs have the layout `BUY_FIELDS` walks. */
export const DIRECT_POOL_BUY_DECODE: boolean = matches("BuyEvent", BUY_FIELDS);
/** Whether `SellEvent` bodies are read directly: both installed SDKs' IDLs have the layout `SELL_FIELDS` walks. */
export const DIRECT_POOL_SELL_DECODE: boolean = matches("SellEvent", SELL_FIELDS);

const FIXED = 0;
const BOOL = 1;
const STRING = 2;
const WIDTH = { pubkey: 32, u64: 8, i64: 8, i128: 16, bool: 1, string: 0 } as const;

/** One event's walk: its field kinds and widths, and where the last walk found each field (reused: synchronous). */
class Layout<Name extends string> {
  private readonly kind: Uint8Array;
  private readonly size: Uint8Array;
  readonly at: Int32Array;
  private readonly index: Record<Name, number>;
  constructor(fields: readonly (readonly [Name, FieldType])[]) {
    this.kind = Uint8Array.from(fields, ([, t]) => (t === "bool" ? BOOL : t === "string" ? STRING : FIXED));
    this.size = Uint8Array.from(fields, ([, t]) => WIDTH[t]);
    this.at = new Int32Array(fields.length);
    this.index = Object.fromEntries(fields.map(([name], i) => [name, i])) as Record<Name, number>;
  }

  /**
   * Fills `at`; false unless `body` is exactly the layout, alone or with the upgrade's tail, with every bool
   * 0 or 1 and every string valid UTF-8 (the cases where the SDK's coder reads the same values).
   */
  walk(body: Buffer): boolean {
    const { kind, size, at } = this;
    const length = body.length;
    let o = 0;
    for (let i = 0; i < kind.length; i++) {
      at[i] = o;
      switch (kind[i]) {
        case BOOL:
          if (o >= length || body[o]! > 1) return false;
          o += 1;
          break;
        case STRING: {
          if (o + 4 > length) return false;
          const end = o + 4 + body.readUInt32LE(o);
          if (end > length || !isUtf8(body.subarray(o + 4, end))) return false;
          o = end;
          break;
        }
        default:
          o += size[i]!;
      }
    }
    return o === length || o + UPGRADE_TAIL === length;
  }

  offset(name: Name): number {
    return this.at[this.index[name]]!;
  }
  u64(body: Buffer, name: Name): bigint {
    return body.readBigUInt64LE(this.offset(name));
  }
  i64(body: Buffer, name: Name): bigint {
    return body.readBigInt64LE(this.offset(name));
  }
  key(body: Buffer, name: Name): string {
    const o = this.offset(name);
    return encodeBase58(body.subarray(o, o + 32));
  }
}

const buy = new Layout<(typeof BUY_FIELDS)[number][0]>(BUY_FIELDS);
const sell = new Layout<(typeof SELL_FIELDS)[number][0]>(SELL_FIELDS);

/**
 * The `pool_trade` event of a BuyEvent body (after the discriminator), the same object as `poolBuyBySdk`;
 * null when the body is not exactly the layout (with or without the upgrade's tail) or the IDLs differ.
 */
export function poolBuyDirect(body: Buffer): PoolTradeEvent | null {
  if (!DIRECT_POOL_BUY_DECODE || !buy.walk(body)) return null;
  const base = buy.u64(body, "pool_base_token_reserves");
  const quote = buy.u64(body, "pool_quote_token_reserves");
  const baseOut = buy.u64(body, "base_amount_out");
  const ix = buy.offset("ix_name");
  // Same keys in the same order as poolBuyBySdk's object (event-decoder.ts).
  return {
    kind: "pool_trade",
    isBuy: true,
    pool: buy.key(body, "pool"),
    user: buy.key(body, "user"),
    coinCreator: buy.key(body, "coin_creator"),
    baseAmount: baseOut,
    quoteAmount: buy.u64(body, "quote_amount_in"),
    poolBaseReservesBefore: base,
    poolQuoteReservesBefore: quote,
    poolBaseReservesAfter: base - baseOut,
    poolQuoteReservesAfter: quote + buy.u64(body, "quote_amount_in_with_lp_fee"),
    cashback: buy.u64(body, "cashback"),
    cashbackFeeBasisPoints: buy.u64(body, "cashback_fee_basis_points"),
    baseSupply: buy.u64(body, "base_supply"),
    ixName: body.toString("utf8", ix + 4, buy.offset("cashback_fee_basis_points")),
    timestamp: buy.i64(body, "timestamp"),
  };
}

/**
 * The `pool_trade` event of a SellEvent body (after the discriminator), the same object as `poolSellBySdk`;
 * null when the body is not exactly the layout (with or without the upgrade's tail) or the IDLs differ.
 */
export function poolSellDirect(body: Buffer): PoolTradeEvent | null {
  if (!DIRECT_POOL_SELL_DECODE || !sell.walk(body)) return null;
  const base = sell.u64(body, "pool_base_token_reserves");
  const quote = sell.u64(body, "pool_quote_token_reserves");
  const baseIn = sell.u64(body, "base_amount_in");
  // Same keys in the same order as poolSellBySdk's object (event-decoder.ts).
  return {
    kind: "pool_trade",
    isBuy: false,
    pool: sell.key(body, "pool"),
    user: sell.key(body, "user"),
    coinCreator: sell.key(body, "coin_creator"),
    baseAmount: baseIn,
    quoteAmount: sell.u64(body, "quote_amount_out"),
    poolBaseReservesBefore: base,
    poolQuoteReservesBefore: quote,
    poolBaseReservesAfter: base + baseIn,
    poolQuoteReservesAfter: quote - sell.u64(body, "quote_amount_out_without_lp_fee"),
    cashback: sell.u64(body, "cashback"),
    cashbackFeeBasisPoints: sell.u64(body, "cashback_fee_basis_points"),
    baseSupply: sell.u64(body, "base_supply"),
    ixName: "sell",
    timestamp: sell.i64(body, "timestamp"),
  };
}
