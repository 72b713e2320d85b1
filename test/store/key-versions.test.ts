/**
 * Key versions and a fire's live check, on SQLite and PostgreSQL (TEST_DATABASE_URL, two stores as two processes):
 * the database counts a key's version up on every change a custody decision reads (whatever writes it), never on
 * the lock writes or a rename, and a fire's claim decided on a key or wallet that changed since is refused on every
 * claim path, writing nothing.
 */
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import { isoNoZone, type LiveCheck, type Store } from "../../src/store/index.js";
import { newExecution, newWalletRecord } from "../helpers/fixtures.js";
import {
  claimPaths,
  fireClaim,
  liveNow,
  newAccount,
  order,
  orderTestEngines,
  subKey,
  unique,
} from "./orders-fixture.js";

const engines = orderTestEngines("key-versions");

describe.each(engines)("key versions and the fire's live check on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("counts a key's version up on each change a decision reads, and not on a lock", async () => {
    const account = await newAccount(a);
    const key = await subKey(a, account);
    const version = async (id: number) => (await b.findKey(account, id))!.version;
    expect(await version(key.id)).toBe(0);
    await a.updateKey(account, key.id, { policy: { max_sol_per_execution: "1" } });
    expect(await version(key.id)).toBe(1);
    // The same policy written again changes nothing a decision reads.
    await a.updateKey(account, key.id, { policy: { max_sol_per_execution: "1" } });
    expect(await version(key.id)).toBe(1);
    await a.updateKey(account, key.id, { frozen: true });
    await a.updateKey(account, key.id, { frozen: false });
    expect(await version(key.id)).toBe(3);
    await a.setAccountFrozen(account, true);
    expect((await b.findKey(account, key.id))!.rootVersion).toBe(await version(account));
    expect(await version(account)).toBe(1);
    // The lock writes (`key_hash = key_hash`: a capped reservation, a key's creation) and the wallet counter.
    const now = Date.now();
    await a.insertExecutionReserving(newExecution(account, "Wallet1111"), {
      keyId: key.id,
      lamports: 1n,
      capLamports: 10n,
      nowMs: now,
      sinceMs: now - 86_400_000,
    });
    await a.addWallet(account, newWalletRecord(`W${unique()}`), false);
    await subKey(a, account, key.id);
    expect(await version(key.id)).toBe(3);
    expect(await version(account)).toBe(1);
    await a.revokeKeyTree(account, key.id, isoNoZone(new Date()));
    expect(await version(key.id)).toBeGreaterThan(3);
  });

  it("a claim decided on a key or a wallet that changed since is refused on every claim path, writing nothing", async () => {
    const account = await newAccount(a);
    const parent = await subKey(a, account);
    const key = await subKey(a, account, parent.id);
    const wallet = await a.addWallet(account, newWalletRecord(`W${unique()}`), false);
    const live = () => liveNow(b, account, key.id, wallet.id);
    let changed = 0;
    const now = Date.now();
    const paths = claimPaths({
      keyId: key.id,
      lamports: 1n,
      capLamports: null,
      nowMs: now,
      sinceMs: now - 86_400_000,
    });
    const changes: [string, () => Promise<unknown>][] = [
      [
        "the key's policy",
        () => a.updateKey(account, key.id, { policy: { max_sol_per_execution: `${++changed}` } }),
      ],
      [
        "the parent's policy",
        () => a.updateKey(account, parent.id, { policy: { max_sol_per_execution: `${++changed}` } }),
      ],
      [
        "the root's freeze, undone",
        async () => {
          await a.setAccountFrozen(account, true);
          await a.setAccountFrozen(account, false);
        },
      ],
    ];
    for (const [path, claim] of Object.entries(paths)) {
      for (const [what, change] of changes) {
        const o = await a.insertOrder(order(account, { keyId: key.id, wallet: wallet.publicKey }), 1000);
        const t = (l: LiveCheck) => fireClaim(o, l, now + 60_000);
        const e = newExecution(account, wallet.publicKey, { idempotencyKey: `order:${o.id}:1` });
        const before = await live();
        await change();
        expect(await claim(b, t(before), e), `${path}: ${what}`).toBeUndefined();
        expect(await a.findOrder(account, o.id)).toMatchObject({ state: "open", attempt: 0 });
        expect(await a.findExecution(account, e.id)).toBeUndefined();
        expect(await a.spentLamports(key.id, 0)).toBe(0n);
        // Decided again on the key read now: it commits.
        expect((await claim(b, t(await live()), e))?.order.state, `${path}: read after ${what}`).toBe(
          "triggered",
        );
      }
    }
    // The wallet the fire signed with, gone since: refused.
    const o = await a.insertOrder(order(account, { keyId: key.id, wallet: wallet.publicKey }), 1000);
    const e = newExecution(account, wallet.publicKey, { idempotencyKey: `order:${o.id}:1` });
    const decided = await live();
    expect(await a.deleteWallet(account, wallet.publicKey)).toBe(true);
    const t = {
      id: o.id,
      from: "open" as const,
      version: o.version,
      to: "triggered" as const,
      claim: { owner: "p", leaseUntilMs: now + 60_000, live: decided },
      triggeredBy: "take_profit",
    };
    expect(await b.claimOrderRecording(t, e, null)).toBeUndefined();
    expect(await b.transitionOrder(t)).toBeUndefined();
    expect(await a.findExecution(account, e.id)).toBeUndefined();
  });

  it("refuses a live check that leaves anything out (deny by default): nothing written", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account), 1000);
    const e = newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1` });
    for (const live of [
      { keys: [], versions: "1:0", walletId: 1 },
      { keys: [account], versions: "", walletId: 1 },
      { keys: [account], versions: "1:0", walletId: -1 },
    ]) {
      const t = {
        id: o.id,
        from: "open" as const,
        version: o.version,
        to: "triggered" as const,
        claim: { owner: "p", leaseUntilMs: Date.now() + 60_000, live },
        triggeredBy: "take_profit",
      };
      await expect(b.claimOrderRecording(t, e, null)).rejects.toThrow(/live check/);
      await expect(b.transitionOrder(t)).rejects.toThrow(/live check/);
    }
    expect(await a.findOrder(account, o.id)).toMatchObject({ state: "open", attempt: 0 });
  });
});
