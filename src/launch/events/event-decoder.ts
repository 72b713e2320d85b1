/**
 * Decodes the launch programs' `Program data:` log events with the official SDKs: the discriminators
 * come from the IDLs the SDKs ship, the bodies from the SDKs' own decoders (which also accept the
 * shorter layouts older program deployments emit) or, for the migration event the SDK has no decoder
 * for, from the SDK program's IDL coder. The exceptions are the curve TradeEvent every order trigger
 * and stream message starts with: read directly when its body is exactly the SDK IDL's full layout, alone or
 * with the October 2026 upgrade's creator_fee_unclaimed (trade-event-direct.ts), through the SDK otherwise;
 * and likewise the pool's BuyEvent / SellEvent (pool-trade-direct.ts).
 */
import type BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { LAUNCH_PROGRAM_ID, LAUNCH_SWAP_PROGRAM_ID } from "../programs.js";
import { launchSdk, launchSwapSdk } from "../sdk.js";
import {
  poolTradeEvent,
  type CurveTradeEvent,
  type LaunchEvent,
  type MigrationEvent,
  type PoolTradeEvent,
} from "./launch-event.js";
import { decodeTradeEventDirect } from "./trade-event-direct.js";
import { poolBuyDirect, poolSellDirect } from "./pool-trade-direct.js";
import { programDataLines } from "./program-data.js";
import { decodeUpgradeEvent, upgradeEventDiscriminators } from "../upgrade-idl.js";
import { WSOL_MINT } from "../programs.js";

interface IdlEvent {
  name: string;
  discriminator: number[];
}

const sdk = launchSdk.PUMP_SDK;
const PUBLIC_KEY_DEFAULT = PublicKey.default;
// An offline program over the SDK's IDL (null connection, as the SDK's own offline program): only its coder is used.
const pumpCoder = launchSdk.getPumpProgram(null as never).coder;
const LAUNCH_ID = LAUNCH_PROGRAM_ID.toBase58();
const SWAP_ID = LAUNCH_SWAP_PROGRAM_ID.toBase58();
const PROGRAMS = new Set([LAUNCH_ID, SWAP_ID]);

function discriminators(events: readonly IdlEvent[]): Map<string, string> {
  return new Map(events.map((e) => [Buffer.from(e.discriminator).toString("hex"), e.name]));
}
// The SDK's events plus the upgrade's (PostCompleteBuyEvent), which the installed SDK does not know.
const launchEvents = new Map([
  ...discriminators(launchSdk.pumpIdl.events as unknown as IdlEvent[]),
  ...upgradeEventDiscriminators(),
]);
const WSOL = WSOL_MINT.toBase58();
// SOL-quoted curves store the zero key as their quote mint: named as wrapped SOL, as the programs take it.
const quoteMintName = (v: PublicKey | undefined): string =>
  v === undefined || v.equals(PUBLIC_KEY_DEFAULT) ? WSOL : v.toBase58();
const swapEvents = discriminators(
  ((launchSwapSdk.pumpAmmJson as unknown as { events?: IdlEvent[] }).events ?? []) as IdlEvent[],
);

const n = (v: BN): bigint => BigInt(v.toString());
const k = (v: PublicKey): string => v.toBase58();

/** A TradeEvent body through the SDK's decoder (the direct read's fallback); throws where the SDK throws. */
export function curveTradeBySdk(body: Buffer): CurveTradeEvent {
  const e = sdk.decodeTradeEventBc(body);
  return {
    kind: "curve_trade",
    mint: k(e.mint),
    user: k(e.user),
    isBuy: e.isBuy,
    solAmount: n(e.solAmount),
    tokenAmount: n(e.tokenAmount),
    virtualSolReserves: n(e.virtualSolReserves),
    virtualTokenReserves: n(e.virtualTokenReserves),
    realSolReserves: n(e.realSolReserves),
    realTokenReserves: n(e.realTokenReserves),
    mayhemMode: e.mayhemMode,
    cashback: n(e.cashback),
    cashbackFeeBasisPoints: n(e.cashbackFeeBasisPoints),
    ixName: e.ixName,
    timestamp: n(e.timestamp),
    quoteMint: quoteMintName(e.quoteMint as PublicKey | undefined),
    // Events older than the quote fields carry only sol_amount (lamports of a SOL-quoted coin).
    quoteAmount: e.quoteAmount === undefined ? n(e.solAmount) : n(e.quoteAmount as BN),
  };
}

function decodeLaunch(name: string, body: Buffer): LaunchEvent | null {
  switch (name) {
    case "CreateEvent": {
      const e = sdk.decodeCreateEventBc(body);
      return {
        kind: "create",
        mint: k(e.mint),
        name: e.name,
        symbol: e.symbol,
        uri: e.uri,
        creator: k(e.creator),
        user: k(e.user),
        bondingCurve: k(e.bondingCurve),
        virtualTokenReserves: n(e.virtualTokenReserves),
        virtualSolReserves: n(e.virtualSolReserves),
        realTokenReserves: n(e.realTokenReserves),
        tokenTotalSupply: n(e.tokenTotalSupply),
        isMayhemMode: e.isMayhemMode,
        isCashbackEnabled: e.isCashbackEnabled,
        timestamp: n(e.timestamp),
        tokenProgram: k(e.tokenProgram),
        quoteMint: k(e.quoteMint),
        creatorFeeBps: n(e.creatorFeeBps),
        isHolderReward: e.isHolderReward,
      };
    }
    case "TradeEvent":
      // The direct read of the full layout (with or without the upgrade's tail); anything else through the SDK.
      return decodeTradeEventDirect(body) ?? curveTradeBySdk(body);
    case "PostCompleteBuyEvent": {
      const e = decodeUpgradeEvent(name, body) as {
        user: PublicKey;
        mint: PublicKey;
        quote_mint: PublicKey;
        base_out: BN;
        quote_in: BN;
        timestamp: BN;
      };
      return {
        kind: "post_complete_buy",
        mint: k(e.mint),
        user: k(e.user),
        quoteMint: quoteMintName(e.quote_mint),
        baseOut: n(e.base_out),
        quoteIn: n(e.quote_in),
        timestamp: n(e.timestamp),
      };
    }
    case "CompleteEvent": {
      const e = sdk.decodeCompleteEventBc(body);
      return {
        kind: "complete",
        mint: k(e.mint),
        user: k(e.user),
        bondingCurve: k(e.bondingCurve),
        timestamp: n(e.timestamp),
      };
    }
    case "CompletePumpAmmMigrationEvent": {
      const e = pumpCoder.types.decode("completePumpAmmMigrationEvent", body) as {
        user: PublicKey;
        mint: PublicKey;
        mintAmount: BN;
        solAmount: BN;
        poolMigrationFee: BN;
        bondingCurve: PublicKey;
        timestamp: BN;
        pool: PublicKey;
      };
      const out: MigrationEvent = {
        kind: "migration",
        mint: k(e.mint),
        user: k(e.user),
        pool: k(e.pool),
        bondingCurve: k(e.bondingCurve),
        mintAmount: n(e.mintAmount),
        solAmount: n(e.solAmount),
        poolMigrationFee: n(e.poolMigrationFee),
        timestamp: n(e.timestamp),
      };
      return out;
    }
    default:
      return null;
  }
}

type SdkPoolEvent = ReturnType<typeof sdk.decodeBuyEventAmm> | ReturnType<typeof sdk.decodeSellEventAmm>;

/**
 * The `pool_trade` event of an event the SDK decoded: the fields both events name alike, and the side's own
 * (`base`, `quote`: the swap amounts; `vault`: what the quote vault moved).
 */
function poolTradeBySdk(
  e: SdkPoolEvent,
  side: { isBuy: boolean; base: BN; quote: BN; vault: BN; ixName: string },
): PoolTradeEvent {
  return poolTradeEvent({
    isBuy: side.isBuy,
    pool: k(e.pool),
    user: k(e.user),
    coinCreator: k(e.coinCreator),
    baseAmount: n(side.base),
    quoteAmount: n(side.quote),
    poolBaseReservesBefore: n(e.poolBaseTokenReserves),
    poolQuoteReservesBefore: n(e.poolQuoteTokenReserves),
    quoteVaultAmount: n(side.vault),
    cashback: n(e.cashback),
    cashbackFeeBasisPoints: n(e.cashbackFeeBasisPoints),
    baseSupply: n(e.baseSupply),
    ixName: side.ixName,
    timestamp: n(e.timestamp),
  });
}

/** A BuyEvent body through the SDK's decoder (the direct read's fallback); throws where the SDK throws. */
export function poolBuyBySdk(body: Buffer): PoolTradeEvent {
  const e = sdk.decodeBuyEventAmm(body);
  return poolTradeBySdk(e, {
    isBuy: true,
    base: e.baseAmountOut,
    quote: e.quoteAmountIn,
    vault: e.quoteAmountInWithLpFee,
    ixName: e.ixName,
  });
}

/** A SellEvent body through the SDK's decoder (the direct read's fallback); throws where the SDK throws. */
export function poolSellBySdk(body: Buffer): PoolTradeEvent {
  const e = sdk.decodeSellEventAmm(body);
  return poolTradeBySdk(e, {
    isBuy: false,
    base: e.baseAmountIn,
    quote: e.quoteAmountOut,
    vault: e.quoteAmountOutWithoutLpFee,
    ixName: "sell",
  });
}

function decodeSwap(name: string, body: Buffer): LaunchEvent | null {
  // The direct read of the swap IDL's layout (with or without the upgrade's v2 tail); anything else through the SDK.
  if (name === "BuyEvent") return poolBuyDirect(body) ?? poolBuyBySdk(body);
  if (name === "SellEvent") return poolSellDirect(body) ?? poolSellBySdk(body);
  return null;
}

/** Decodes one `Program data:` payload of `programId`; null for events the stream does not use or bytes that do not decode. */
export function decodeProgramData(programId: string, base64: string): LaunchEvent | null {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length < 8) return null;
  const disc = bytes.subarray(0, 8).toString("hex");
  const body = bytes.subarray(8);
  try {
    if (programId === LAUNCH_ID) {
      const name = launchEvents.get(disc);
      return name === undefined ? null : decodeLaunch(name, body);
    }
    if (programId === SWAP_ID) {
      const name = swapEvents.get(disc);
      return name === undefined ? null : decodeSwap(name, body);
    }
  } catch {
    // A payload that matches a discriminator but not the layout (an unknown program version): skipped,
    // counted by the caller as undecodable.
    return null;
  }
  return null;
}

/** Every stream event in a transaction's logs, in log order. */
export function decodeLaunchLogs(logs: readonly string[]): LaunchEvent[] {
  const out: LaunchEvent[] = [];
  for (const d of programDataLines(logs, PROGRAMS)) {
    const e = decodeProgramData(d.programId, d.base64);
    if (e !== null) out.push(e);
  }
  return out;
}
