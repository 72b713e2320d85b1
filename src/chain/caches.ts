import type { PublicKey } from "@solana/web3.js";
import { createFeeEstimator } from "./fee-estimator.js";
import type { PriorityFeeSetting } from "./priority-fee.js";
import type { AccountInfo, RpcClient } from "./rpc-client.js";

/** The latest blockhash and the last block height at which transactions using it are accepted. */
export interface CachedBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

/** Options of the background caches. */
export interface ChainCachesOptions {
  rpc: Pick<RpcClient, "getLatestBlockhash" | "getMultipleAccounts" | "getRecentPrioritizationFees">;
  /** Interval between background refreshes. */
  refreshMs: number;
  /** Accounts read on every refresh with one getMultipleAccounts (launch Global, FeeConfigs, swap GlobalConfig). */
  accounts: PublicKey[];
  priorityFee: PriorityFeeSetting;
  /** Called with refresh failures (the caches keep serving the last good values). */
  onError?: (e: unknown) => void;
  /** Timer hooks, injectable for tests. */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** Blockhash, hot accounts and priority fee, refreshed in the background so the request path never waits. */
export interface ChainCaches {
  /** Loads everything once (throws if the first load fails), then refreshes every `refreshMs`. */
  start(): Promise<void>;
  stop(): void;
  /** Runs one refresh now (what the timer does); failures keep the previous values. */
  refresh(): Promise<void>;
  blockhash(): CachedBlockhash;
  /** The cached account, null when it does not exist on chain; throws for a key that is not cached. */
  account(key: PublicKey): AccountInfo | null;
  /** The price for a transaction writing `accounts` (their own recent fees in auto mode; cluster-wide without). */
  priorityFeeMicroLamports(accounts?: readonly PublicKey[]): bigint;
  /** Slot of the last successful account refresh. */
  accountsSlot(): number;
}

/**
 * `prev` when `fresh` holds the same account, else `fresh`. The cached accounts (program configurations) rarely
 * change, and their readers decode each account object once, memoized by identity (domain/trade/configs.ts): a
 * new object every refresh made the first trade or order fire after each refresh decode them again (about
 * 75 µs of a 1 ms fire in the orders bench, most of it the fee tiers' big numbers turned into text).
 */
function unchanged(prev: AccountInfo | null | undefined, fresh: AccountInfo | null): AccountInfo | null {
  if (prev === undefined || prev === null || fresh === null) return fresh;
  const same =
    prev.lamports === fresh.lamports &&
    prev.executable === fresh.executable &&
    prev.owner.equals(fresh.owner) &&
    prev.data.equals(fresh.data);
  return same ? prev : fresh;
}

/** Builds the caches; nothing is read until `start()`. */
export function createChainCaches(options: ChainCachesOptions): ChainCaches {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref());
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
  let latest: CachedBlockhash | undefined;
  let accounts = new Map<string, AccountInfo | null>();
  let slot = 0;
  const fees = createFeeEstimator({ rpc: options.rpc, setting: options.priorityFee });
  let timer: unknown;
  let running = false;
  let inFlight: Promise<void> | undefined;

  async function loadBlockhash() {
    const res = await options.rpc.getLatestBlockhash("confirmed");
    latest = res.value;
  }
  async function loadAccounts() {
    if (options.accounts.length === 0) return;
    const res = await options.rpc.getMultipleAccounts(options.accounts);
    const next = new Map<string, AccountInfo | null>();
    options.accounts.forEach((k, i) => {
      const key = k.toBase58();
      next.set(key, unchanged(accounts.get(key), res.value[i] ?? null));
    });
    accounts = next;
    slot = res.slot;
  }
  const loadFee = () => fees.refresh();

  async function refreshAll(throwOnError: boolean) {
    const results = await Promise.allSettled([loadBlockhash(), loadAccounts(), loadFee()]);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    for (const f of failures) {
      if (throwOnError) throw f.reason;
      options.onError?.(f.reason);
    }
  }

  function refresh(): Promise<void> {
    // Coalesce: a manual refresh during a timer refresh waits for the same round trip.
    inFlight ??= refreshAll(false).finally(() => (inFlight = undefined));
    return inFlight;
  }

  function schedule() {
    if (!running) return;
    timer = setTimer(() => {
      void refresh().finally(schedule);
    }, options.refreshMs);
  }

  return {
    async start() {
      if (running) return;
      await refreshAll(true);
      running = true;
      schedule();
    },
    stop() {
      running = false;
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    },
    refresh,
    blockhash() {
      if (!latest) throw new Error("chain caches not started: no blockhash yet");
      return latest;
    },
    account(key) {
      const k = key.toBase58();
      if (!accounts.has(k)) throw new Error(`account ${k} is not cached`);
      return accounts.get(k) ?? null;
    },
    priorityFeeMicroLamports: (accounts) => fees.price(accounts),
    accountsSlot: () => slot,
  };
}
