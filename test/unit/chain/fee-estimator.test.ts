/** Priority fee estimates: fixed, cluster-wide, per written account, capped, refreshed off the request path. */
import { Keypair, type PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createFeeEstimator } from "../../../src/chain/fee-estimator.js";

const curve = Keypair.generate().publicKey;
const pool = Keypair.generate().publicKey;

function fakeRpc(feesByAccount: Map<string, bigint[]>, clusterFees: bigint[]) {
  const calls: (string | null)[] = [];
  return {
    calls,
    async getRecentPrioritizationFees(accounts?: PublicKey[]) {
      const key = accounts?.[0]?.toBase58() ?? null;
      calls.push(key);
      const fees = key === null ? clusterFees : (feesByAccount.get(key) ?? []);
      return fees.map((f, i) => ({ slot: i, prioritizationFee: f }));
    },
  };
}

describe("createFeeEstimator", () => {
  it("fixed: the configured price, no RPC", async () => {
    const rpc = fakeRpc(new Map(), []);
    const e = createFeeEstimator({ rpc, setting: { mode: "fixed", microLamports: 5n } });
    await e.refresh();
    expect(e.price([curve])).toBe(5n);
    expect(rpc.calls).toEqual([]);
  });

  it("auto: cluster-wide until an account's own estimate is refreshed, then the account's, at the percentile", async () => {
    const busy = [10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n, 100n].map((f) => f * 1000n);
    const rpc = fakeRpc(new Map([[curve.toBase58(), busy]]), [2_000n, 0n, 0n]);
    const e = createFeeEstimator({ rpc, setting: { mode: "auto", percentile: 90 } });
    expect(() => e.price()).toThrow(/not started/);
    await e.refresh();
    expect(e.price()).toBe(2_000n);
    // First use: priced with the cluster figure (nothing waits), and the curve joins the refresh.
    expect(e.price([curve])).toBe(2_000n);
    await e.refresh();
    expect(rpc.calls).toEqual([null, null, curve.toBase58()]);
    expect(e.price([curve])).toBe(90_000n);
    expect(e.price()).toBe(2_000n);
  });

  it("caps the estimate at maxMicroLamports, and takes the highest of several accounts", async () => {
    const rpc = fakeRpc(
      new Map([
        [curve.toBase58(), [9_000_000n]],
        [pool.toBase58(), [3_000n]],
      ]),
      [1_000n],
    );
    const e = createFeeEstimator({
      rpc,
      setting: { mode: "auto", percentile: 50, maxMicroLamports: 500_000n },
    });
    await e.refresh();
    e.price([curve, pool]);
    await e.refresh();
    expect(e.price([pool])).toBe(3_000n);
    expect(e.price([curve, pool])).toBe(500_000n);
  });

  it("refreshes only recently used accounts, at most maxAccounts of them", async () => {
    let t = 0;
    const keys = Array.from({ length: 3 }, () => Keypair.generate().publicKey);
    const rpc = fakeRpc(new Map(), [1_000n]);
    const e = createFeeEstimator({
      rpc,
      setting: { mode: "auto" },
      maxAccounts: 2,
      idleMs: 100,
      now: () => t,
    });
    await e.refresh();
    for (const k of keys) e.price([k]);
    rpc.calls.length = 0;
    await e.refresh();
    expect(rpc.calls.slice(1).sort()).toEqual([keys[1]!.toBase58(), keys[2]!.toBase58()].sort());
    t = 1_000;
    rpc.calls.length = 0;
    await e.refresh();
    expect(rpc.calls).toEqual([null]);
  });
});
