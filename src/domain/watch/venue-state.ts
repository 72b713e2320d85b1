/**
 * Warm venue state (issue 18): for each watched mint, its bonding curve, mint, canonical pool and pool vaults
 * stay subscribed (and, per wallet that traded it, the wallet's token accounts), so a trade on fresh state
 * needs no read. Mints are kept in an LRU of `maxMints`; a mint no trade used for `idleMs` is dropped unless
 * it was watched explicitly (POST /v1/watch, WATCH_MINTS). A curve that completes (migration to the pool)
 * invalidates the mint's entries: the next trade reads and routes again. Issue 29: the cache is shared, the
 * interest is per account: each mint remembers which accounts watched or traded it, an account lists and
 * unwatches only its own, and the mint leaves the cache when no account (nor WATCH_MINTS) wants it.
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "../../chain/rpc-client.js";
import type { WarmAccounts } from "../../chain/warm-accounts.js";
import type { CreatedMints } from "./created-mints.js";
import { decodeBondingCurveOnce } from "../../launch/state.js";
import { planText, tradeReadPlan, type TradeReadPlan } from "../../launch/trade-accounts.js";

/** Wallets per mint whose token accounts stay subscribed (least recently trading dropped first). */
const WALLETS_PER_MINT = 64;
/** Wallets whose own account (their lamports) stays subscribed after a watch, least recently warmed dropped first. */
const WARM_WALLETS = 4_096;
const MINT_KEYS = ["mint", "curve", "pool", "poolBase2022", "poolBaseSpl", "poolQuote"] as const;
// The wallet account itself too: its lamports let a warm trade refuse what it cannot pay (issue 22).
const WALLET_KEYS = ["userAta2022", "userAtaSpl", "userWsol", "user"] as const;

/** Options of the venue state. */
export interface VenueStateOptions {
  accounts: WarmAccounts;
  maxMints: number;
  idleMs: number;
  now?: () => number;
  onError?: (e: unknown) => void;
  /** Mints seen created lately, which a buy may take its state from (created-mints.ts). */
  created?: CreatedMints;
}

/**
 * The subscribed venue accounts of one watched mint (base-58), what a decoded trade event may refresh: the
 * pool's base vault under each token program (only the mint's own program's one exists) and its quote vault.
 */
export type VenueKeys = Readonly<Record<(typeof MINT_KEYS)[number], string>>;

interface MintWatch {
  mint: string;
  keys: VenueKeys;
  addresses: string[];
  /** Wallet (base58) → its subscribed addresses; Map order = least recently trading first. */
  wallets: Map<string, string[]>;
  /** Kept until unwatched (by every account that asked) or evicted: WATCH_MINTS or some account's POST. */
  explicit: boolean;
  /** Watched by the service's configuration (WATCH_MINTS): no account can unwatch it. */
  configured: boolean;
  /** Accounts that watched or traded it (their interest), and those of them that watched it explicitly. */
  accounts: Set<number>;
  explicitAccounts: Set<number>;
  lastUsed: number;
  ready: Promise<void>;
  /** Issue 31: open orders on the mint; a pinned mint is neither swept, evicted nor unwatched. */
  pins: number;
}

/** A watched mint as GET /v1/watch lists it. */
export interface WatchedMint {
  mint: string;
  /** Watched on request (POST /v1/watch, WATCH_MINTS) rather than after a trade. */
  explicit: boolean;
}

function mintAddresses(mint: PublicKey): { keys: VenueKeys; addresses: string[] } {
  // The mint-scoped keys do not depend on the user: any key gives the same ones.
  const plan = tradeReadPlan({ mint, user: mint });
  const keys = Object.fromEntries(MINT_KEYS.map((k) => [k, plan.keys[k].toBase58()])) as VenueKeys;
  return { keys, addresses: MINT_KEYS.map((k) => keys[k]) };
}

function curveComplete(a: AccountInfo | null | undefined): boolean | null {
  if (a === null || a === undefined) return null;
  try {
    return decodeBondingCurveOnce(a.data).complete;
  } catch {
    return null;
  }
}

/** The LRU of watched mints over the warm account cache. */
export class VenueState {
  /** Map order = least recently used first. */
  private readonly mints = new Map<string, MintWatch>();
  private readonly byCurve = new Map<string, string>();
  /** Canonical pool → mint, so a pool's trade event (which names the pool, not the mint) finds its mint. */
  private readonly byPool = new Map<string, string>();
  /** Wallet (base58) → its subscribed own account, kept for a first buy after a watch (Map order = LRU). */
  private readonly warmUsers = new Map<string, readonly string[]>();
  /** Issue 31: every venue account of a watched mint → the mint, so a change names the mint it moves. */
  private readonly byAddress = new Map<string, string>();
  private readonly mintListeners = new Set<(mint: string) => void>();
  private readonly now: () => number;

  /** Mints seen created lately (the market feed's create events), when the feed is followed. */
  readonly created: CreatedMints | undefined;

  constructor(private readonly options: VenueStateOptions) {
    this.now = options.now ?? Date.now;
    this.created = options.created;
  }

  /** Whether the warm path is on (WATCHED_MINTS_MAX > 0). */
  enabled(): boolean {
    return this.options.maxMints > 0;
  }

  /**
   * Called by the warm account cache for every applied change: a curve whose `complete` flag flipped has
   * migrated (or was reset); the mint's cached routing no longer holds.
   */
  accountChanged(address: string, previous: AccountInfo | null | undefined, next: AccountInfo | null): void {
    const moved = this.byAddress.get(address);
    if (moved !== undefined) for (const l of this.mintListeners) l(moved);
    const mint = this.byCurve.get(address);
    if (mint === undefined) return;
    const before = curveComplete(previous);
    if (before === null || before === curveComplete(next)) return;
    const w = this.mints.get(mint);
    if (w !== undefined) this.options.accounts.invalidate(w.addresses);
  }

  /**
   * Watches a mint (explicit: kept until unwatched or evicted) for `account` (undefined: the service's own
   * configuration); resolves once its subscriptions are live.
   */
  watch(mint: string, explicit: boolean, account?: number): Promise<void> {
    if (!this.enabled()) return Promise.resolve();
    let w = this.mints.get(mint);
    if (w !== undefined) {
      this.mints.delete(mint);
      this.mints.set(mint, w);
      w.lastUsed = this.now();
      this.markInterest(w, explicit, account);
      return w.ready;
    }
    const { keys, addresses } = mintAddresses(new PublicKey(mint));
    w = {
      mint,
      keys,
      addresses,
      wallets: new Map(),
      explicit: false,
      configured: false,
      accounts: new Set(),
      explicitAccounts: new Set(),
      lastUsed: this.now(),
      ready: this.options.accounts.acquire(addresses),
      pins: 0,
    };
    this.markInterest(w, explicit, account);
    this.mints.set(mint, w);
    this.byCurve.set(keys.curve, mint);
    this.byPool.set(keys.pool, mint);
    for (const a of addresses) this.byAddress.set(a, mint);
    this.evict();
    return w.ready;
  }

  /** Issue 31: keeps a mint watched while an open order needs it (counted); resolves once it is live. */
  pin(mint: string): Promise<void> {
    if (!this.enabled()) return Promise.resolve();
    const ready = this.watch(mint, false);
    const w = this.mints.get(mint);
    if (w !== undefined) w.pins++;
    return ready;
  }

  /** Issue 31: one order less on the mint; unpinned, it is swept like any mint a trade used. */
  unpin(mint: string): void {
    const w = this.mints.get(mint);
    if (w !== undefined && w.pins > 0) w.pins--;
  }

  /** Issue 31: tells `listener` the mint whose venue account changed (account notification or decoded trade). */
  onMintChange(listener: (mint: string) => void): () => void {
    this.mintListeners.add(listener);
    return () => this.mintListeners.delete(listener);
  }

  /** Drops the least recently used unpinned mints while over maxMints. */
  private evict(): void {
    if (this.mints.size <= this.options.maxMints) return;
    for (const w of [...this.mints.values()]) {
      if (this.mints.size <= this.options.maxMints) return;
      if (w.pins === 0) this.drop(w.mint);
    }
  }

  /**
   * Ends `account`'s interest in a mint (undefined: every interest, the whole entry); false when the account
   * had none. The mint leaves the cache only when no account, nor the configuration, still wants it.
   */
  unwatch(mint: string, account?: number): boolean {
    const w = this.mints.get(mint);
    if (w === undefined) return false;
    if (account !== undefined) {
      if (!w.accounts.delete(account)) return false;
      w.explicitAccounts.delete(account);
      w.explicit = w.configured || w.explicitAccounts.size > 0;
      if (w.configured || w.accounts.size > 0 || w.pins > 0) return true;
    }
    this.drop(mint);
    return true;
  }

  /** Watched mints, least recently used first: all of them, or those `account` watched or traded. */
  list(account?: number): WatchedMint[] {
    const out: WatchedMint[] = [];
    for (const w of this.mints.values()) {
      if (account === undefined) out.push({ mint: w.mint, explicit: w.explicit });
      else if (w.accounts.has(account)) out.push({ mint: w.mint, explicit: w.explicitAccounts.has(account) });
    }
    return out;
  }

  /** The venue accounts of a watched mint, or of the watched mint whose canonical pool is `pool`; null when unwatched. */
  keysOf(by: { mint: string } | { pool: string }): VenueKeys | null {
    const mint = "mint" in by ? by.mint : this.byPool.get(by.pool);
    return mint === undefined ? null : (this.mints.get(mint)?.keys ?? null);
  }

  /**
   * The cached read of a trade plan (same order as plan.addresses), or null: the trade reads. `account`, the
   * account trading (or quoting), gains an interest in the mint.
   */
  lookup(plan: TradeReadPlan, account?: number): { accounts: (AccountInfo | null)[]; slot: number } | null {
    if (plan.explicitPool !== null) return null;
    const w = this.mints.get(planText(plan, "mint"));
    if (w === undefined) return null;
    this.touch(w);
    if (account !== undefined) w.accounts.add(account);
    const hit = this.options.accounts.lookup(plan.addressTexts);
    if (hit !== null) this.touchWallet(w, planText(plan, "user"));
    return hit;
  }

  /**
   * After a trade's own read: offer it to the cache, and watch the mint and the wallet (in the background),
   * for `account` (the account trading or quoting).
   */
  afterRead(
    plan: TradeReadPlan,
    accounts: readonly (AccountInfo | null)[],
    slot: number,
    account?: number,
  ): void {
    if (!this.enabled() || plan.explicitPool !== null) return;
    this.options.accounts.offer(plan.addressTexts, accounts, slot);
    this.adopt(plan, account);
  }

  /**
   * Keeps the wallets' own accounts subscribed (their lamports), so the first buy of a watched mint by any of
   * them needs no read (lookupBuy); resolves once they are live and seeded.
   */
  warmWallets(users: readonly string[]): Promise<void> {
    if (!this.enabled()) return Promise.resolve();
    const fresh: string[] = [];
    for (const user of users) {
      const kept = this.warmUsers.get(user);
      this.warmUsers.delete(user);
      this.warmUsers.set(user, kept ?? [user]);
      if (kept === undefined) fresh.push(user);
    }
    while (this.warmUsers.size > WARM_WALLETS) {
      const [oldest, keys] = this.warmUsers.entries().next().value!;
      this.warmUsers.delete(oldest);
      this.options.accounts.release(keys);
    }
    return fresh.length === 0 ? Promise.resolve() : this.options.accounts.acquire(fresh);
  }

  /**
   * A buy's state when the mint is warm and the wallet's own account is, but its token accounts of the mint
   * are not subscribed yet (its first trade of a watched mint): the token accounts read as absent, so the buy
   * creates its token account idempotently. Same order as plan.addresses; null when anything else is cold.
   * The caller decides whether the routed venue tolerates the unknown token accounts (the curve does).
   */
  lookupBuy(
    plan: TradeReadPlan,
    account?: number,
  ): { accounts: (AccountInfo | null)[]; slot: number } | null {
    if (plan.explicitPool !== null) return null;
    const w = this.mints.get(planText(plan, "mint"));
    if (w === undefined) return null;
    const user = planText(plan, "user");
    const known = [...w.addresses, user];
    const hit = this.options.accounts.lookup(known);
    if (hit === null) return null;
    this.touch(w);
    if (account !== undefined) w.accounts.add(account);
    const byAddress = new Map<string, AccountInfo | null>();
    known.forEach((a, i) => byAddress.set(a, hit.accounts[i] ?? null));
    return { accounts: plan.addressTexts.map((a) => byAddress.get(a) ?? null), slot: hit.slot };
  }

  /** The wallet's own account when it is warm (subscribed, live, seeded), else null. */
  lookupWallet(user: string): { account: AccountInfo | null; slot: number } | null {
    const hit = this.options.accounts.lookup([user]);
    return hit === null ? null : { account: hit.accounts[0] ?? null, slot: hit.slot };
  }

  /**
   * Watches the plan's mint for `account` and subscribes the wallet's accounts of that mint (its token
   * accounts and its own), in the background: its next trade of the mint is warm.
   */
  adopt(plan: TradeReadPlan, account?: number): void {
    if (!this.enabled() || plan.explicitPool !== null) return;
    const mint = planText(plan, "mint");
    const watching = this.watch(mint, false, account);
    const w = this.mints.get(mint);
    if (w === undefined) return;
    const user = planText(plan, "user");
    if (!w.wallets.has(user)) {
      const addresses = WALLET_KEYS.map((k) => planText(plan, k));
      w.wallets.set(user, addresses);
      while (w.wallets.size > WALLETS_PER_MINT) {
        const [oldest, keys] = w.wallets.entries().next().value!;
        w.wallets.delete(oldest);
        this.options.accounts.release(keys);
      }
      void this.options.accounts.acquire(addresses).catch((e: unknown) => this.options.onError?.(e));
    } else this.touchWallet(w, user);
    void watching.catch((e: unknown) => this.options.onError?.(e));
  }

  /** Drops mints no trade used for idleMs (explicit watches stay). Returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.options.idleMs;
    let n = 0;
    for (const w of [...this.mints.values()]) {
      if (!w.explicit && w.pins === 0 && w.lastUsed < cutoff) {
        this.drop(w.mint);
        n++;
      }
    }
    return n;
  }

  /** Unsubscribes everything. */
  close(): void {
    for (const m of [...this.mints.keys()]) this.drop(m);
    for (const keys of this.warmUsers.values()) this.options.accounts.release(keys);
    this.warmUsers.clear();
  }

  private markInterest(w: MintWatch, explicit: boolean, account: number | undefined): void {
    if (account === undefined) w.configured ||= explicit;
    else {
      w.accounts.add(account);
      if (explicit) w.explicitAccounts.add(account);
    }
    w.explicit ||= explicit;
  }

  private touch(w: MintWatch): void {
    w.lastUsed = this.now();
    this.mints.delete(w.mint);
    this.mints.set(w.mint, w);
  }

  private touchWallet(w: MintWatch, user: string): void {
    const keys = w.wallets.get(user);
    if (keys === undefined) return;
    w.wallets.delete(user);
    w.wallets.set(user, keys);
  }

  private drop(mint: string): void {
    const w = this.mints.get(mint);
    if (w === undefined) return;
    this.mints.delete(mint);
    this.byCurve.delete(w.keys.curve);
    this.byPool.delete(w.keys.pool);
    for (const a of w.addresses) this.byAddress.delete(a);
    this.options.accounts.release(w.addresses);
    for (const keys of w.wallets.values()) this.options.accounts.release(keys);
  }
}
