/**
 * The kept key and wallet rows of order fires (custody-snapshots.ts): a view answers from them and says so, a fresh
 * view reads and keeps what it read, a prefetch reads each row once however many orders ask, and nothing is kept
 * that a claim could not check (a missing row, a key read without its root's version).
 */
import { describe, expect, it } from "vitest";
import { CustodySnapshots } from "../../../../src/domain/orders/custody-snapshots.js";
import type { KeyRecord, WalletRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const wallet = (publicKey: string): WalletRecord => ({
  id: 7,
  seq: 1,
  apiKeyId: 1,
  publicKey,
  status: "active",
  isDefault: true,
  createdAt: "2026-11-29T00:00:00.000",
  ciphertext: "c",
  nonce: "n",
  tag: "t",
  keyId: "k",
});

/** A store whose rows the test sets, counting reads. */
function fakeStore() {
  const reads = { key: 0, wallet: 0 };
  const rows: { key: KeyRecord | undefined; wallet: WalletRecord | undefined } = {
    key: keyRecord(),
    wallet: wallet("W1"),
  };
  return {
    reads,
    rows,
    store: {
      findKey: async () => {
        reads.key++;
        return rows.key === undefined ? undefined : { ...rows.key };
      },
      findWallet: async () => {
        reads.wallet++;
        return rows.wallet === undefined ? undefined : { ...rows.wallet };
      },
    },
  };
}

describe("custody snapshots", () => {
  it("a view reads what is not kept, then answers from the kept rows and says so", async () => {
    const { store, reads } = fakeStore();
    const s = new CustodySnapshots(store);
    const first = s.view();
    expect((await first.readKey(1, 2))?.version).toBe(0);
    expect((await first.readWallet(1, "W1"))?.id).toBe(7);
    expect(first.served).toBe(false);
    const second = s.view();
    expect((await second.readKey(1, 2))?.id).toBe(2);
    expect(second.served).toBe(true);
    await second.readWallet(1, "W1");
    expect(reads).toEqual({ key: 1, wallet: 1 });
    // Kept rows are frozen: a fire cannot change what the next one decides on.
    expect(Object.isFrozen(await s.view().readKey(1, 2))).toBe(true);
  });

  it("a fresh view reads again and keeps the new rows for the next fire", async () => {
    const { store, rows, reads } = fakeStore();
    const s = new CustodySnapshots(store);
    await s.view().readKey(1, 2);
    rows.key = keyRecord({ version: 3, policy: { max_sol_per_execution: "0.1" } });
    const fresh = s.view(true);
    expect((await fresh.readKey(1, 2))?.version).toBe(3);
    expect(fresh.served).toBe(false);
    expect((await s.view().readKey(1, 2))?.version).toBe(3);
    expect(reads.key).toBe(2);
  });

  it("keeps nothing a claim could not check: a missing row, a key without its root's version", async () => {
    const { store, rows, reads } = fakeStore();
    const s = new CustodySnapshots(store);
    rows.key = undefined;
    rows.wallet = undefined;
    expect(await s.view().readKey(1, 2)).toBeUndefined();
    expect(await s.view().readWallet(1, "W1")).toBeUndefined();
    rows.key = keyRecord({ rootVersion: -1 });
    await s.view().readKey(1, 2);
    const v = s.view();
    await v.readKey(1, 2);
    expect(v.served).toBe(false);
    expect(reads.key).toBe(3);
    expect(s.size).toEqual({ keys: 0, wallets: 0 });
  });

  it("a prefetch reads each row once however many orders ask, and not at all once kept", async () => {
    const { store, reads } = fakeStore();
    const s = new CustodySnapshots(store);
    const errors: unknown[] = [];
    for (let i = 0; i < 5; i++) s.prefetch({ accountId: 1, keyId: 2, wallet: "W1" }, (e) => errors.push(e));
    await new Promise((r) => setImmediate(r));
    expect(reads).toEqual({ key: 1, wallet: 1 });
    s.prefetch({ accountId: 1, keyId: 2, wallet: "W1" }, (e) => errors.push(e));
    await new Promise((r) => setImmediate(r));
    expect(reads).toEqual({ key: 1, wallet: 1 });
    expect(s.view().served).toBe(false);
    const v = s.view();
    await v.readKey(1, 2);
    expect(v.served).toBe(true);
    expect(errors).toEqual([]);
  });

  it("a prefetch's failed read is reported, kept nothing, and the fire reads itself", async () => {
    const s = new CustodySnapshots({
      findKey: () => Promise.reject(new Error("down")),
      findWallet: () => Promise.reject(new Error("down")),
    });
    const errors: unknown[] = [];
    s.prefetch({ accountId: 1, keyId: 2, wallet: "W1" }, (e) => errors.push(e));
    await new Promise((r) => setImmediate(r));
    expect(errors.map((e) => (e as Error).message)).toEqual(["down", "down"]);
    expect(s.size).toEqual({ keys: 0, wallets: 0 });
  });

  it("stale: whether a row the view answered from the kept ones has changed since (read now, and kept)", async () => {
    const { store, rows } = fakeStore();
    const s = new CustodySnapshots(store);
    const fresh = s.view();
    await fresh.readKey(1, 2);
    await fresh.readWallet(1, "W1");
    // Nothing answered from the kept rows: nothing to be stale.
    expect(await fresh.stale()).toBe(false);
    const kept = s.view();
    await kept.readKey(1, 2);
    await kept.readWallet(1, "W1");
    expect(await kept.stale()).toBe(false);
    rows.key = keyRecord({ version: 1 });
    expect(await kept.stale()).toBe(true);
    // The new row is kept now: a view of it is not stale.
    const next = s.view();
    expect((await next.readKey(1, 2))?.version).toBe(1);
    expect(await next.stale()).toBe(false);
    rows.wallet = undefined;
    await next.readWallet(1, "W1");
    expect(await next.stale()).toBe(true);
    rows.key = undefined;
    const gone = s.view();
    await gone.readKey(1, 2);
    expect(await gone.stale()).toBe(true);
  });
});
