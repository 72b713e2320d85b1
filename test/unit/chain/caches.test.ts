import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Keypair, PublicKey } from "@solana/web3.js";
import { createChainCaches } from "../../../src/chain/caches.js";
import { estimatePriorityFee } from "../../../src/chain/priority-fee.js";
import type { AccountInfo } from "../../../src/chain/rpc-client.js";

const keys = [Keypair.generate().publicKey, Keypair.generate().publicKey];

function fakeRpc() {
  const state = { round: 0, fail: false, calls: 0, fees: [0n, 10n, 20n, 30n, 40n] };
  const account = (n: number): AccountInfo => ({
    lamports: BigInt(n),
    owner: PublicKey.default,
    data: Buffer.from([n]),
    executable: false,
  });
  const rpc = {
    getLatestBlockhash: () => {
      state.calls++;
      if (state.fail) return Promise.reject(new Error("rpc down"));
      return Promise.resolve({
        slot: state.round,
        value: { blockhash: `hash${state.round}`, lastValidBlockHeight: 150 + state.round },
      });
    },
    getMultipleAccounts: (ks: PublicKey[]) => {
      state.calls++;
      if (state.fail) return Promise.reject(new Error("rpc down"));
      return Promise.resolve({
        slot: state.round,
        value: ks.map((_, i) => (i === 1 ? null : account(state.round))),
      });
    },
    getRecentPrioritizationFees: () => {
      state.calls++;
      if (state.fail) return Promise.reject(new Error("rpc down"));
      return Promise.resolve(state.fees.map((f, i) => ({ slot: i, prioritizationFee: f })));
    },
  };
  return { rpc, state };
}

function manualTimer() {
  const pending: (() => void)[] = [];
  return {
    setTimer: (fn: () => void) => {
      pending.push(fn);
      return pending.length;
    },
    clearTimer: () => {
      pending.length = 0;
    },
    pending,
  };
}

describe("chain caches", () => {
  it("loads at start and serves without round trips", async () => {
    const { rpc, state } = fakeRpc();
    const timer = manualTimer();
    const caches = createChainCaches({
      rpc,
      refreshMs: 1000,
      accounts: keys,
      priorityFee: { mode: "fixed", microLamports: 5000n },
      ...timer,
    });
    await caches.start();
    const calls = state.calls;
    expect(calls).toBe(2); // blockhash + one getMultipleAccounts; fixed fee needs no read
    for (let i = 0; i < 10; i++) {
      expect(caches.blockhash()).toEqual({ blockhash: "hash0", lastValidBlockHeight: 150 });
      expect(caches.account(keys[0]!)?.lamports).toBe(0n);
      expect(caches.account(keys[1]!)).toBeNull();
      expect(caches.priorityFeeMicroLamports()).toBe(5000n);
    }
    expect(state.calls).toBe(calls);
    expect(() => caches.account(Keypair.generate().publicKey)).toThrow(/not cached/);
    expect(timer.pending).toHaveLength(1);
    caches.stop();
  });

  it("refreshes in the background and keeps the last values while the RPC fails", async () => {
    const { rpc, state } = fakeRpc();
    const timer = manualTimer();
    const errors: unknown[] = [];
    const caches = createChainCaches({
      rpc,
      refreshMs: 1000,
      accounts: keys,
      priorityFee: { mode: "auto", minMicroLamports: 1n, maxMicroLamports: 1_000_000n, percentile: 50 },
      onError: (e) => errors.push(e),
      ...timer,
    });
    await caches.start();
    expect(caches.priorityFeeMicroLamports()).toBe(20n);
    state.round = 1;
    state.fees = [500n];
    await caches.refresh();
    expect(caches.blockhash().blockhash).toBe("hash1");
    expect(caches.account(keys[0]!)?.lamports).toBe(1n);
    expect(caches.priorityFeeMicroLamports()).toBe(500n);
    state.fail = true;
    state.round = 2;
    await caches.refresh();
    expect(caches.blockhash().blockhash).toBe("hash1");
    expect(caches.priorityFeeMicroLamports()).toBe(500n);
    expect(errors).toHaveLength(3);
    caches.stop();
  });

  it("keeps an unchanged account's object across refreshes (its decoders memoize by identity), a changed one's not", async () => {
    const { rpc, state } = fakeRpc();
    const caches = createChainCaches({
      rpc,
      refreshMs: 1000,
      accounts: keys,
      priorityFee: { mode: "auto", minMicroLamports: 1n, maxMicroLamports: 1_000_000n, percentile: 50 },
      ...manualTimer(),
    });
    await caches.start();
    const first = caches.account(keys[0]!);
    await caches.refresh();
    // The same bytes, lamports, owner: a fresh object from the RPC, the old one kept.
    expect(caches.account(keys[0]!)).toBe(first);
    state.round = 1;
    await caches.refresh();
    const changed = caches.account(keys[0]!);
    expect(changed).not.toBe(first);
    expect(changed?.data).toEqual(Buffer.from([1]));
    expect(caches.account(keys[1]!)).toBeNull();
    caches.stop();
  });

  it("fails start when the first load fails", async () => {
    const { rpc, state } = fakeRpc();
    state.fail = true;
    const caches = createChainCaches({
      rpc,
      refreshMs: 1000,
      accounts: keys,
      priorityFee: { mode: "fixed", microLamports: 1n },
      ...manualTimer(),
    });
    await expect(caches.start()).rejects.toThrow(/rpc down/);
    expect(() => caches.blockhash()).toThrow(/not started/);
  });
});

describe("estimatePriorityFee", () => {
  it("stays within [min, max] and ignores idle slots", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n })),
        fc.integer({ min: 0, max: 100 }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (fees, percentile, min, span) => {
          const max = min + span;
          const fee = estimatePriorityFee(fees, { percentile, minMicroLamports: min, maxMicroLamports: max });
          return fee >= min && fee <= max;
        },
      ),
    );
    expect(estimatePriorityFee([0n, 0n, 0n], { minMicroLamports: 7n, maxMicroLamports: 100n })).toBe(7n);
    expect(
      estimatePriorityFee([0n, 10n, 20n, 30n, 40n], {
        percentile: 100,
        minMicroLamports: 1n,
        maxMicroLamports: 100n,
      }),
    ).toBe(40n);
  });
});
