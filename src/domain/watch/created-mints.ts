/**
 * Mints seen in a create event of the market feed, within the last slots: a buy of one is built from the event
 * (the curve's initial state is all in the CreateEvent; the curve trades in the same or later transactions move
 * its reserves), so a sniper's buy of a token created a moment ago needs no account read. A mint leaves when it
 * is older than `maxAgeSlots`, when its curve completes or migrates, and least recently created first beyond
 * `maxMints`.
 */
import { PublicKey } from "@solana/web3.js";
import type { CurveCreateEvent, CurveTradeEvent, LaunchEvent } from "../../launch/events/launch-event.js";
import { TOKEN_PROGRAM_ID } from "../../launch/spl-token.js";
import { associatedTokenAddress, WSOL_MINT } from "../../launch/programs.js";
import type { BondingCurveState } from "../../launch/state.js";
import type { CurveTradeRead } from "../../launch/trade-accounts.js";

/** Decimals of every coin the launch program creates (its create instruction fixes them). */
export const LAUNCH_DECIMALS = 6;

/** A created mint's state as its events tell it. */
export interface CreatedMint {
  mint: PublicKey;
  curveAddress: PublicKey;
  tokenProgram: PublicKey;
  supply: bigint;
  curve: BondingCurveState;
  /** Slot of the newest event the state follows. */
  slot: number;
}

/** Options of the created-mint memory. */
export interface CreatedMintsOptions {
  /** A created mint is used for this many slots after its last event (its state may have moved unseen). */
  maxAgeSlots: number;
  maxMints?: number;
  /** The newest slot the chain's subscriptions saw (null before any). */
  lastSlot: () => number | null;
  /** Whether the feed is live (its connection delivered lately): events missed meanwhile would go unseen. */
  live?: () => boolean;
}

/** The bonding curve a CreateEvent describes (nothing sold yet, not complete). */
export function curveOfCreate(e: CurveCreateEvent): BondingCurveState {
  return {
    virtualTokenReserves: e.virtualTokenReserves,
    virtualQuoteReserves: e.virtualSolReserves,
    realTokenReserves: e.realTokenReserves,
    realQuoteReserves: 0n,
    tokenTotalSupply: e.tokenTotalSupply,
    complete: false,
    creator: new PublicKey(e.creator),
    isMayhemMode: e.isMayhemMode,
    isCashbackCoin: e.isCashbackEnabled,
    quoteMint: new PublicKey(e.quoteMint),
    creatorFeeBps: e.creatorFeeBps,
    canEditCreatorFee: false,
    isHolderReward: e.isHolderReward,
  };
}

/** The curve after a trade event: the event's reserves, every other field unchanged. */
export function curveAfterTradeEvent(curve: BondingCurveState, e: CurveTradeEvent): BondingCurveState {
  return {
    ...curve,
    virtualTokenReserves: e.virtualTokenReserves,
    virtualQuoteReserves: e.virtualSolReserves,
    realTokenReserves: e.realTokenReserves,
    realQuoteReserves: e.realSolReserves,
  };
}

/**
 * A first buy's read of a created mint for `user`, whose lamports come from its subscription: its token
 * accounts are taken as absent (the buy creates its own idempotently).
 */
export function createdBuyRead(created: CreatedMint, user: PublicKey, lamports: bigint): CurveTradeRead {
  return {
    venue: "bonding_curve",
    mint: created.mint,
    user,
    tokenProgram: created.tokenProgram,
    mintSupply: created.supply,
    decimals: LAUNCH_DECIMALS,
    userTokenAccount: associatedTokenAddress(user, created.mint, created.tokenProgram),
    userAtaExists: false,
    userTokenBalance: 0n,
    userWsolAccount: associatedTokenAddress(user, WSOL_MINT, TOKEN_PROGRAM_ID),
    userWsolExists: false,
    userLamports: lamports,
    curveAddress: created.curveAddress,
    curve: created.curve,
  };
}

/** A mint seen created in one transaction, with the SOL its creation transaction bought (the dev buy). */
export interface CreatedNotice {
  readonly event: CurveCreateEvent;
  /** Lamports of the curve buys in the create's own transaction (fees excluded), 0 without a dev buy. */
  readonly initialBuyLamports: bigint;
}

/** The memory of recently created mints, fed by the market feed's decoded events. */
export class CreatedMints {
  /** Map order = least recently created first. */
  private readonly mints = new Map<string, CreatedMint>();
  private readonly listeners = new Set<(n: CreatedNotice) => void>();
  /** Create events seen (for tests and stats). */
  seen = 0;

  constructor(private readonly options: CreatedMintsOptions) {}

  /** Tells `listener` of each mint created (after its transaction's events are applied); returns the removal. */
  onCreate(listener: (n: CreatedNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies one transaction's events (landed at `slot`), in log order. */
  apply(events: readonly LaunchEvent[], slot: number): void {
    this.applyEvents(events, slot);
    if (this.listeners.size === 0) return;
    for (const e of events) {
      if (e.kind !== "create" || !this.mints.has(e.mint)) continue;
      let initialBuyLamports = 0n;
      for (const t of events)
        if (t.kind === "curve_trade" && t.mint === e.mint && t.isBuy) initialBuyLamports += t.solAmount;
      for (const l of this.listeners) l({ event: e, initialBuyLamports });
    }
  }

  private applyEvents(events: readonly LaunchEvent[], slot: number): void {
    for (const e of events) {
      if (e.kind === "create") {
        const solQuoted =
          e.quoteMint === PublicKey.default.toBase58() || e.quoteMint === WSOL_MINT.toBase58();
        if (!solQuoted) continue;
        this.seen++;
        this.mints.set(e.mint, {
          mint: new PublicKey(e.mint),
          curveAddress: new PublicKey(e.bondingCurve),
          tokenProgram: new PublicKey(e.tokenProgram),
          supply: e.tokenTotalSupply,
          curve: Object.freeze(curveOfCreate(e)),
          slot,
        });
        while (this.mints.size > (this.options.maxMints ?? 4_096))
          this.mints.delete(this.mints.keys().next().value!);
        continue;
      }
      const kept = "mint" in e ? this.mints.get(e.mint) : undefined;
      if (kept === undefined) continue;
      if (e.kind === "complete" || e.kind === "migration") this.mints.delete(e.mint);
      else if (e.kind === "curve_trade" && slot >= kept.slot) {
        this.mints.set(e.mint, { ...kept, curve: Object.freeze(curveAfterTradeEvent(kept.curve, e)), slot });
      }
    }
  }

  /** The created mint's state while fresh (seen within maxAgeSlots of the newest slot), else null. */
  lookup(mint: string): CreatedMint | null {
    const kept = this.mints.get(mint);
    if (kept === undefined || this.options.live?.() === false) return null;
    const last = this.options.lastSlot() ?? kept.slot;
    if (last - kept.slot > this.options.maxAgeSlots) {
      this.mints.delete(mint);
      return null;
    }
    return kept;
  }

  /** Forgets a mint (its accounts are now watched, or a trade found the event's state wrong). */
  forget(mint: string): void {
    this.mints.delete(mint);
  }

  /** Number of mints remembered. */
  size(): number {
    return this.mints.size;
  }
}
