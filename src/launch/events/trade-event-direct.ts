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
import { isUtf8 } from "node:buffer";
import { encodeBase58 } from "../../core/base58.js";
import { WSOL_MINT } from "../programs.js";
import { launchSdk } from "../sdk.js";
import type { CurveTradeEvent } from "./launch-event.js";

type FieldType = "pubkey" | "u64" | "i64" | "bool" | "string" | "shareholders";

// The IDL's `TradeEvent` fields, in order, with the type each is walked as
// ("shareholders" is vec<Shareholder>).
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
  ["shareholders", "shareholders"],
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

type FieldName = (typeof TRADE_FIELDS)[number][0];
const WIDTH = { pubkey: 32, u64: 8, i64: 8, bool: 1 } as const;

/**
 * Whether the installed SDK's IDL describes `TradeEvent` (and its `Shareholder` items) exactly as
 * `TRADE_FIELDS` walks it: the same field names and types in the same order. Checked once at load; any
 * difference (an SDK upgrade) leaves the SDK's decoder in use for every body.
 */
export const DIRECT_TRADE_DECODE: boolean = (() => {
  type Field = { name: string; type: unknown };
  const types = (launchSdk.pumpIdl as unknown as { types?: { name: string; type: { fields?: Field[] } }[] })
    .types;
  const fields = types?.find((t) => t.name === "TradeEvent")?.type.fields;
  const holder = types?.find((t) => t.name === "Shareholder")?.type.fields;
  const typeOf = (t: FieldType): unknown =>
    t === "shareholders" ? { vec: { defined: { name: "Shareholder" } } } : t;
  const same = (a: readonly Field[] | undefined, b: readonly (readonly [string, unknown])[]) =>
    a?.length === b.length &&
    b.every(([name, type], i) => a[i]!.name === name && JSON.stringify(a[i]!.type) === JSON.stringify(type));
  return (
    same(
      fields,
      TRADE_FIELDS.map(([name, type]) => [name, typeOf(type)]),
    ) && same(holder, SHAREHOLDER_FIELDS)
  );
})();

const INDEX = Object.fromEntries(TRADE_FIELDS.map(([name], i) => [name, i])) as Record<FieldName, number>;
// The walk's field kinds as small integers, and where it found each field (reused: the walk is synchronous).
const FIXED = 0;
const BOOL = 1;
const STRING = 2;
const VEC = 3;
const KIND = Uint8Array.from(TRADE_FIELDS, ([, t]) =>
  t === "bool" ? BOOL : t === "string" ? STRING : t === "shareholders" ? VEC : FIXED,
);
const SIZE = Uint8Array.from(TRADE_FIELDS, ([, t]) => (t in WIDTH ? WIDTH[t as keyof typeof WIDTH] : 0));
const at = new Int32Array(TRADE_FIELDS.length);

// Fills `at` with each field's offset in `body`; false unless the body is exactly the full layout (with or
// without the upgrade's tail) with every bool 0 or 1 and the string valid UTF-8 (the cases where the SDK's coder
// reads the same values).
function walk(body: Buffer): boolean {
  const length = body.length;
  let o = 0;
  for (let i = 0; i < KIND.length; i++) {
    at[i] = o;
    switch (KIND[i]) {
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
      case VEC:
        if (o + 4 > length) return false;
        o += 4 + body.readUInt32LE(o) * SHAREHOLDER_SIZE;
        if (o > length) return false;
        break;
      default:
        o += SIZE[i]!;
    }
  }
  return o === length || o + UPGRADE_TAIL === length;
}

const u64 = (body: Buffer, name: FieldName): bigint => body.readBigUInt64LE(at[INDEX[name]]!);
const key = (body: Buffer, name: FieldName): string => {
  const o = at[INDEX[name]]!;
  return encodeBase58(body.subarray(o, o + 32));
};
const WSOL = WSOL_MINT.toBase58();
// As event-decoder.ts's quoteMintName: SOL-quoted curves store the zero key, named as wrapped SOL.
function quoteMint(body: Buffer): string {
  const o = at[INDEX.quote_mint]!;
  for (let i = o; i < o + 32; i++) if (body[i] !== 0) return encodeBase58(body.subarray(o, o + 32));
  return WSOL;
}

/**
 * The `curve_trade` event of a TradeEvent body (the bytes after the discriminator), the same object the SDK
 * path makes; null when the body is not exactly the full layout (with or without the upgrade's
 * `creator_fee_unclaimed`) or the IDL differs (use the SDK).
 */
export function decodeTradeEventDirect(body: Buffer): CurveTradeEvent | null {
  if (!DIRECT_TRADE_DECODE || !walk(body)) return null;
  const ix = at[INDEX.ix_name]!;
  // Same keys in the same order as the SDK path's object (event-decoder.ts).
  return {
    kind: "curve_trade",
    mint: key(body, "mint"),
    user: key(body, "user"),
    isBuy: body[at[INDEX.is_buy]!] === 1,
    solAmount: u64(body, "sol_amount"),
    tokenAmount: u64(body, "token_amount"),
    virtualSolReserves: u64(body, "virtual_sol_reserves"),
    virtualTokenReserves: u64(body, "virtual_token_reserves"),
    realSolReserves: u64(body, "real_sol_reserves"),
    realTokenReserves: u64(body, "real_token_reserves"),
    mayhemMode: body[at[INDEX.mayhem_mode]!] === 1,
    cashback: u64(body, "cashback"),
    cashbackFeeBasisPoints: u64(body, "cashback_fee_basis_points"),
    ixName: body.toString("utf8", ix + 4, at[INDEX.mayhem_mode]!),
    timestamp: body.readBigInt64LE(at[INDEX.timestamp]!),
    quoteMint: quoteMint(body),
    // The full layout always carries quote_amount (only older, shorter layouts fall back to sol_amount).
    quoteAmount: u64(body, "quote_amount"),
  };
}
