/**
 * The compute-unit price per transaction. Fixed, or "auto": the configured percentile of recent
 * prioritization fees, capped, for the accounts the transaction writes (a mint's bonding curve or pool), so
 * a trade on a busy curve pays what that curve needs and a quiet one does not. Estimates are refreshed in the
 * background (with the chain caches): `price()` never waits. An account seen for the first time is priced with
 * the cluster-wide estimate and joins the background refresh.
 */
import { LruMap } from "../core/lru.js";
import { PublicKey } from "@solana/web3.js";
import { estimatePriorityFee, type PriorityFeeSetting } from "./priority-fee.js";
import type { RpcClient } from "./rpc-client.js";

/** Options of the estimator. */
export interface FeeEstimatorOptions {
  rpc: Pick<RpcClient, "getRecentPrioritizationFees">;
  setting: PriorityFeeSetting;
  /** Accounts refreshed per round at most (the least recently used are dropped). Default 16. */
  maxAccounts?: number;
  /** An account not priced for this long leaves the refresh. Default 60 s. */
  idleMs?: number;
  now?: () => number;
}

/** Prices transactions from cached estimates. */
export interface FeeEstimator {
  /** One round of getRecentPrioritizationFees calls (cluster-wide plus each recently used account). */
  refresh(): Promise<void>;
  /** Micro-lamports per CU for a transaction writing `accounts`; throws before the first refresh in auto mode. */
  price(accounts?: readonly PublicKey[]): bigint;
}

interface Tracked {
  key: PublicKey;
  lastUsed: number;
  estimate: bigint | undefined;
}

/** Builds the estimator (auto mode reads nothing until `refresh`). */
export function createFeeEstimator(options: FeeEstimatorOptions): FeeEstimator {
  const setting = options.setting;
  const now = options.now ?? Date.now;
  const maxAccounts = options.maxAccounts ?? 16;
  const idleMs = options.idleMs ?? 60_000;
  let global: bigint | undefined = setting.mode === "fixed" ? setting.microLamports : undefined;
  const tracked = new LruMap<string, Tracked>(maxAccounts);

  async function estimateFor(accounts: PublicKey[] | undefined): Promise<bigint> {
    if (setting.mode === "fixed") return setting.microLamports;
    const sample = await options.rpc.getRecentPrioritizationFees(accounts);
    return estimatePriorityFee(
      sample.map((s) => s.prioritizationFee),
      setting,
    );
  }

  function track(key: PublicKey, at: number): Tracked {
    // Hex of the raw bytes: this runs on the request path, where base58 encoding is comparatively slow.
    const id = key.toBuffer().toString("hex");
    // The least recently used account is dropped past maxAccounts.
    let t = tracked.get(id);
    if (t === undefined) {
      t = { key, lastUsed: at, estimate: undefined };
      tracked.set(id, t);
    } else t.lastUsed = at;
    return t;
  }

  return {
    async refresh() {
      if (setting.mode === "fixed") return;
      const at = now();
      for (const [id, t] of [...tracked.entries()]) if (at - t.lastUsed > idleMs) tracked.delete(id);
      const entries = [...tracked.entries()].map(([, t]) => t);
      const [cluster, ...perAccount] = await Promise.allSettled([
        estimateFor(setting.accounts?.map((a) => new PublicKey(a))),
        ...entries.map((t) => estimateFor([t.key])),
      ]);
      perAccount.forEach((r, i) => {
        if (r.status === "fulfilled") entries[i]!.estimate = r.value;
      });
      // The cluster-wide figure is what a first-time account gets: its failure is the one worth reporting.
      if (cluster!.status === "rejected") throw cluster!.reason;
      global = cluster!.value;
    },
    price(accounts) {
      if (global === undefined) throw new Error("chain caches not started: no priority fee yet");
      if (setting.mode === "fixed" || accounts === undefined || accounts.length === 0) return global;
      const at = now();
      let price: bigint | undefined;
      for (const a of accounts) {
        const e = track(a, at).estimate;
        if (e !== undefined && (price === undefined || e > price)) price = e;
      }
      return price ?? global;
    },
  };
}
