/**
 * Decoded trade events refresh the warm venue state (issue 21): a curve trade on a watched mint rewrites the
 * cached bonding curve with the event's reserves after the trade; a pool trade on a watched mint's canonical
 * pool rewrites the two vaults' amounts. Only entries known at an older slot than the event's take it
 * (WarmAccounts.eventMayReplace); the account notification that follows replaces it. Of several trades of one
 * venue in one transaction only the last counts (log order is execution order; all share the slot).
 */
import { TurnYield } from "../../core/turn-yield.js";
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "../../chain/rpc-client.js";
import type { WarmAccounts } from "../../chain/warm-accounts.js";
import {
  curveAfterTrade,
  vaultWithAmount,
  type AccountBytes,
} from "../../launch/events/account-after-trade.js";
import type { CurveTradeEvent, LaunchEvent, PoolTradeEvent } from "../../launch/events/launch-event.js";
import { WSOL_MINT } from "../../launch/programs.js";
import type { VenueState } from "./venue-state.js";

/** One account to rewrite: its address and how its bytes change. */
interface Patch {
  address: string;
  after: (cached: AccountBytes) => AccountBytes | null;
}

/** The last curve trade per mint and the last pool trade per pool of one transaction's events. */
function lastTrades(events: readonly LaunchEvent[]): (CurveTradeEvent | PoolTradeEvent)[] {
  // A curve sold out in this transaction is left to its notification: it flips `complete` and invalidates the mint.
  const completed = new Set(events.filter((e) => e.kind === "complete").map((e) => e.mint));
  const last = new Map<string, CurveTradeEvent | PoolTradeEvent>();
  for (const e of events) {
    if (e.kind === "curve_trade" && !completed.has(e.mint)) last.set(`curve:${e.mint}`, e);
    if (e.kind === "pool_trade") last.set(`pool:${e.pool}`, e);
  }
  return [...last.values()];
}

/** Applies decoded trade events to the warm state of the mints it watches; counts the events that refreshed it. */
export class EventRefresh {
  /** Trade events that refreshed at least one warm account. */
  refreshed = 0;
  /** Transactions are applied one after the other, so a newer one builds on the older one's bytes. */
  private queue: Promise<void> = Promise.resolve();
  private readonly turns = new TurnYield();

  constructor(
    private readonly venues: Pick<VenueState, "keysOf">,
    private readonly accounts: Pick<WarmAccounts, "eventBase" | "applyEvent">,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /**
   * Applies one transaction's events (landed at `slot`) after those handed in before; resolves once tried
   * (never rejects: a failure goes to onError and the next transaction still applies).
   */
  apply(events: readonly LaunchEvent[], slot: number): Promise<void> {
    const trades = lastTrades(events);
    if (trades.length === 0) return this.queue;
    this.queue = this.queue
      .then(async () => {
        const turn = this.turns.pass();
        if (turn !== undefined) await turn;
        this.applyNow(trades, slot);
      })
      .catch(this.onError);
    return this.queue;
  }

  /**
   * Issue 31: while `busy` answers true (the order engine has a changed mint to evaluate), a transaction's
   * refresh waits one turn (the account notification already carried the state it would write). Returns the
   * removal.
   */
  yieldTo(busy: () => boolean): () => void {
    return this.turns.add(busy);
  }

  // Synchronous, in the microtask of its transaction: a changed mint's evaluation is scheduled before the market
  // feed's fan-out of the same transaction checks whether the order engine is busy (it then waits a turn).
  private applyNow(trades: readonly (CurveTradeEvent | PoolTradeEvent)[], slot: number): void {
    for (const e of trades) {
      const patches = this.patchesOf(e);
      let applied = false;
      for (const p of patches) if (this.patch(p, slot)) applied = true;
      if (applied) this.refreshed++;
    }
  }

  private patchesOf(e: CurveTradeEvent | PoolTradeEvent): Patch[] {
    if (e.kind === "curve_trade") {
      const keys = this.venues.keysOf({ mint: e.mint });
      return keys === null ? [] : [{ address: keys.curve, after: (c) => curveAfterTrade(c, e) }];
    }
    const keys = this.venues.keysOf({ pool: e.pool });
    if (keys === null) return [];
    const mint = new PublicKey(keys.mint);
    const base = (c: AccountBytes) => vaultWithAmount(c, mint, e.poolBaseReservesAfter);
    // Only the base vault of the mint's own token program exists; the other has no cached account to rewrite.
    return [
      { address: keys.poolBase2022, after: base },
      { address: keys.poolBaseSpl, after: base },
      { address: keys.poolQuote, after: (c) => vaultWithAmount(c, WSOL_MINT, e.poolQuoteReservesAfter) },
    ];
  }

  private patch(p: Patch, slot: number): boolean {
    const cached: AccountInfo | null = this.accounts.eventBase(p.address, slot);
    if (cached === null) return false;
    const after = p.after(cached);
    if (after === null) return false;
    return this.accounts.applyEvent(p.address, slot, cached, { ...cached, ...after });
  }
}
