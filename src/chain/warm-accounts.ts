/**
 * Accounts kept current by subscriptions, so a request can use them without a read. Each address is
 * reference-counted; the first holder subscribes it, waits for the node's confirmation, then seeds its state
 * with one background read (an update that arrives meanwhile wins over an older read). A lost connection
 * makes the entries unusable until their resubscription is confirmed and they are read again.
 *
 * An update that changes an account's owner or data size (a program upgrade, a closed and re-created account)
 * invalidates the entry: it is not used again until a request's own read offers fresh state (`offer`). Growth
 * the caller declares expected (`acceptsGrowth`: a layout whose decoders read any size, such as a launch curve
 * that grows on its first October 2026 trade) keeps the entry, with the grown account as its state.
 *
 * A decoded trade event may refresh an entry ahead of its notification (`eventBase` / `applyEvent`), only when
 * the event's slot is newer than the entry's: notifications and reads are authoritative, so an event at the
 * entry's slot or older never replaces it, and a notification or read at the event's slot replaces the event's.
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo, RpcClient } from "./rpc-client.js";
import type { ChainSubscriptions, Subscription, SubscriptionCommitment } from "./subscriptions/index.js";

/** One cached account: its state (null = does not exist) and the slot it is known at. */
export interface WarmAccount {
  account: AccountInfo | null;
  slot: number;
}

/** Options of the warm account cache. */
export interface WarmAccountsOptions {
  subscriptions: ChainSubscriptions;
  /** Reads off the request path (seeding, re-reads after a reconnect). */
  rpc: Pick<RpcClient, "getMultipleAccounts">;
  /** Cached state is usable while the connection delivered something within this many slots. */
  maxAgeSlots: number;
  commitment?: SubscriptionCommitment;
  /** Told of every applied change (previous state, new state), after the cache holds it. */
  onChange?: (address: string, previous: AccountInfo | null | undefined, next: AccountInfo | null) => void;
  /** Whether an account that grew in place (same owner, more data) stays usable; default: never. */
  acceptsGrowth?: (previous: AccountInfo, next: AccountInfo) => boolean;
  onError?: (e: unknown) => void;
}

interface Entry {
  refs: number;
  sub: Subscription;
  /** undefined = not seeded (or re-reading after a reconnect), or invalidated. */
  state: AccountInfo | null | undefined;
  slot: number;
  /** Set by an owner/size change or `invalidate`; cleared only by `offer` (a request's own read). */
  invalid: boolean;
}

/** What the event rule looks at of an entry. */
export interface EventTarget {
  state: AccountInfo | null | undefined;
  slot: number;
  invalid: boolean;
}

/**
 * Whether a decoded event at `slot` may replace an entry's state: the entry is live, holds an existing
 * account (seeded, not invalidated) and is known at an older slot than the event's.
 */
export function eventMayReplace(entry: EventTarget, live: boolean, slot: number): boolean {
  return live && !entry.invalid && entry.state !== undefined && entry.state !== null && slot > entry.slot;
}

/** A closed account arrives as 0 lamports owned by the system program with no data: that is "does not exist". */
function existing(a: AccountInfo): AccountInfo | null {
  return a.lamports === 0n && a.data.length === 0 && a.owner.equals(PublicKey.default) ? null : a;
}

/** The subscription-backed account cache. */
export class WarmAccounts {
  private readonly entries = new Map<string, Entry>();
  private readonly reseed = new Set<string>();
  private reseedScheduled = false;
  /** Counters for stats: lookups served from the cache, and misses. */
  hits = 0;
  misses = 0;
  /** Entries a decoded event refreshed ahead of their notification. */
  eventApplied = 0;

  constructor(private readonly options: WarmAccountsOptions) {}

  /** Number of subscribed addresses. */
  size(): number {
    return this.entries.size;
  }

  /** Takes a reference on each address; resolves once all are subscribed and seeded (or failed to be). */
  async acquire(addresses: readonly string[]): Promise<void> {
    const fresh: string[] = [];
    const waits: Promise<void>[] = [];
    for (const a of addresses) {
      const e = this.entries.get(a);
      if (e !== undefined) {
        e.refs++;
        continue;
      }
      const entry: Entry = {
        refs: 1,
        state: undefined,
        slot: -1,
        invalid: false,
        sub: undefined as unknown as Subscription,
      };
      entry.sub = this.options.subscriptions.accountSubscribe(
        a,
        (u) => this.update(a, entry, u.account, u.slot),
        {
          commitment: this.options.commitment ?? "confirmed",
          // Changes made while the connection was down are not replayed: read the entry again once back.
          onLive: (live) => {
            if (!live || entry.slot < 0) return;
            entry.state = undefined; // unusable from now until the re-read lands
            this.scheduleReseed(a);
          },
        },
      );
      this.entries.set(a, entry);
      fresh.push(a);
      waits.push(entry.sub.ready);
    }
    if (fresh.length === 0) return;
    const confirmed = await Promise.allSettled(waits);
    const ready = fresh.filter((_, i) => confirmed[i]!.status === "fulfilled");
    await this.seed(ready);
  }

  /** Drops a reference on each address; the last one unsubscribes. */
  release(addresses: readonly string[]): void {
    for (const a of addresses) {
      const e = this.entries.get(a);
      if (e === undefined) continue;
      if (--e.refs > 0) continue;
      this.entries.delete(a);
      e.sub();
    }
  }

  /**
   * The cached state of every address, or null when any is not subscribed, not live, not seeded, or the
   * connection has been quiet for more than maxAgeSlots. `slot` is the newest slot the state is known at.
   */
  lookup(addresses: readonly string[]): { accounts: (AccountInfo | null)[]; slot: number } | null {
    const out: (AccountInfo | null)[] = [];
    let slot = 0;
    const subs = this.options.subscriptions;
    if (subs.slotsSinceLastMessage() > this.options.maxAgeSlots) return this.miss();
    for (const k of addresses) {
      const e = this.entries.get(k);
      if (e === undefined || e.state === undefined || !e.sub.live()) return this.miss();
      out.push(e.state);
      if (e.slot > slot) slot = e.slot;
    }
    this.hits++;
    // Live subscriptions mean nothing changed since: the state holds at the connection's latest slot.
    return { accounts: out, slot: Math.max(slot, subs.lastSlot() ?? 0) };
  }

  /** Offers a request's own read: entries that are subscribed and hold nothing newer take it. */
  offer(addresses: readonly string[], accounts: readonly (AccountInfo | null)[], slot: number): void {
    addresses.forEach((k, i) => {
      const e = this.entries.get(k);
      if (e === undefined || !e.sub.live() || e.slot > slot) return;
      e.state = accounts[i] ?? null;
      e.slot = slot;
      e.invalid = false;
    });
  }

  /** The cached state of `address` when a decoded event at `slot` may replace it (eventMayReplace), else null. */
  eventBase(address: string, slot: number): AccountInfo | null {
    const e = this.entries.get(address);
    return e !== undefined && eventMayReplace(e, e.sub.live(), slot) ? (e.state ?? null) : null;
  }

  /**
   * Replaces `base` (what eventBase returned) with `next`, the account after an event at `slot`, stamped with
   * that slot; false when anything replaced `base` meanwhile or the rule no longer holds.
   */
  applyEvent(address: string, slot: number, base: AccountInfo, next: AccountInfo): boolean {
    const e = this.entries.get(address);
    if (e === undefined || e.state !== base || !eventMayReplace(e, e.sub.live(), slot)) return false;
    e.state = next;
    e.slot = slot;
    this.eventApplied++;
    this.options.onChange?.(address, base, next);
    return true;
  }

  /** Marks entries unusable until a read offers them fresh state. */
  invalidate(addresses: readonly string[]): void {
    for (const a of addresses) {
      const e = this.entries.get(a);
      if (e === undefined) continue;
      e.state = undefined;
      e.invalid = true;
    }
  }

  private miss(): null {
    this.misses++;
    return null;
  }

  private update(address: string, e: Entry, raw: AccountInfo, slot: number): void {
    if (slot < e.slot) return;
    const next = existing(raw);
    const prev = e.state;
    e.slot = slot;
    if (e.invalid) return;
    if (prev !== undefined && prev !== null && next !== null) {
      const sameShape = prev.owner.equals(next.owner) && prev.data.length === next.data.length;
      const grew =
        prev.owner.equals(next.owner) &&
        next.data.length > prev.data.length &&
        this.options.acceptsGrowth?.(prev, next) === true;
      if (!sameShape && !grew) {
        // A layout or ownership change: the next trade reads rather than trusting our interpretation.
        e.state = undefined;
        e.invalid = true;
        this.options.onChange?.(address, prev, next);
        return;
      }
    }
    // A notification carries the whole account: it seeds an entry as well as a read would.
    e.state = next;
    this.options.onChange?.(address, prev, next);
  }

  private scheduleReseed(address: string): void {
    this.reseed.add(address);
    if (this.reseedScheduled) return;
    this.reseedScheduled = true;
    setImmediate(() => {
      this.reseedScheduled = false;
      const all = [...this.reseed];
      this.reseed.clear();
      void this.seed(all);
    });
  }

  private async seed(addresses: string[]): Promise<void> {
    if (addresses.length === 0) return;
    try {
      const res = await this.options.rpc.getMultipleAccounts(addresses.map((a) => new PublicKey(a)));
      addresses.forEach((a, i) => {
        const e = this.entries.get(a);
        // An update newer than the read (or equal: it is at least as recent) keeps its state.
        if (e === undefined || e.invalid || (e.state !== undefined && e.slot >= res.slot)) return;
        e.state = res.value[i] ?? null;
        e.slot = Math.max(e.slot, res.slot);
      });
    } catch (e) {
      this.options.onError?.(e);
    }
  }
}
