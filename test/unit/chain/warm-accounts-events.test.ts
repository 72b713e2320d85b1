/**
 * The slot rule of event refreshes in the warm account cache (issue 21): a decoded event replaces an entry
 * only when its slot is newer than the entry's; account notifications and reads stay authoritative.
 */
import { describe, expect, it } from "vitest";
import type { AccountInfo } from "../../../src/chain/rpc-client.js";
import { eventMayReplace } from "../../../src/chain/warm-accounts.js";
import { fakeWarmChain } from "../../helpers/warm-fakes.js";
import { key } from "../../helpers/fixtures.js";

const A = key(1).toBase58();
const acc = (byte: number, lamports = 1n): AccountInfo => ({
  lamports,
  owner: key(9),
  data: Buffer.alloc(8, byte),
  executable: false,
});

async function seeded(slot = 10) {
  const f = fakeWarmChain();
  f.chain.set(A, acc(1));
  f.readSlot = slot;
  await f.accounts.acquire([A]);
  return f;
}

describe("eventMayReplace", () => {
  const state = acc(1);
  it("only a newer slot on a live, seeded, valid entry", () => {
    expect(eventMayReplace({ state, slot: 10, invalid: false }, true, 11)).toBe(true);
    expect(eventMayReplace({ state, slot: 10, invalid: false }, true, 10)).toBe(false);
    expect(eventMayReplace({ state, slot: 10, invalid: false }, true, 9)).toBe(false);
    expect(eventMayReplace({ state, slot: 10, invalid: false }, false, 11)).toBe(false);
    expect(eventMayReplace({ state, slot: 10, invalid: true }, true, 11)).toBe(false);
    expect(eventMayReplace({ state: undefined, slot: 10, invalid: false }, true, 11)).toBe(false);
    expect(eventMayReplace({ state: null, slot: 10, invalid: false }, true, 11)).toBe(false);
  });
});

describe("WarmAccounts event refresh", () => {
  it("an event at a newer slot replaces the state and stamps the event's slot", async () => {
    const f = await seeded(10);
    const base = f.accounts.eventBase(A, 12);
    expect(base).toEqual(acc(1));
    expect(f.accounts.applyEvent(A, 12, base!, acc(2))).toBe(true);
    expect(f.cached(A)).toEqual({ account: acc(2), slot: 12 });
    expect(f.accounts.eventApplied).toBe(1);
  });

  it("an event at the entry's slot or older never replaces it", async () => {
    const f = await seeded(10);
    expect(f.accounts.eventBase(A, 10)).toBeNull();
    expect(f.accounts.eventBase(A, 9)).toBeNull();
    const base = f.accounts.lookup([A])!.accounts[0]!;
    expect(f.accounts.applyEvent(A, 10, base, acc(2))).toBe(false);
    expect(f.accounts.applyEvent(A, 9, base, acc(2))).toBe(false);
    // Two events of one slot: the first applies, the second is at the entry's slot now.
    expect(f.accounts.applyEvent(A, 11, base, acc(2))).toBe(true);
    expect(f.accounts.eventBase(A, 11)).toBeNull();
    expect(f.cached(A)).toEqual({ account: acc(2), slot: 11 });
  });

  it("a notification at the event's slot replaces the event's state; an older one does not", async () => {
    const f = await seeded(10);
    f.accounts.applyEvent(A, 12, f.accounts.eventBase(A, 12)!, acc(2));
    f.notify(A, acc(3), 11);
    expect(f.cached(A)!.account).toEqual(acc(2));
    f.notify(A, acc(4), 12);
    expect(f.cached(A)).toEqual({ account: acc(4), slot: 12 });
  });

  it("a base that changed since eventBase is not overwritten", async () => {
    const f = await seeded(10);
    const base = f.accounts.eventBase(A, 13)!;
    f.notify(A, acc(3), 11);
    expect(f.accounts.applyEvent(A, 13, base, acc(2))).toBe(false);
    expect(f.cached(A)!.account).toEqual(acc(3));
  });

  it("a dead, invalidated, unseeded or unknown entry takes no event (and a dead one stays unusable)", async () => {
    const f = await seeded(10);
    f.setLive(false);
    expect(f.accounts.eventBase(A, 20)).toBeNull();
    expect(f.accounts.applyEvent(A, 20, acc(1), acc(2))).toBe(false);
    expect(f.cached(A)).toBeNull();
    f.setLive(true);
    f.accounts.invalidate([A]);
    expect(f.accounts.eventBase(A, 20)).toBeNull();
    expect(f.accounts.eventBase(key(2).toBase58(), 20)).toBeNull();
    const g = fakeWarmChain();
    await g.accounts.acquire([A]); // the account does not exist: nothing to rewrite
    expect(g.accounts.eventBase(A, 20)).toBeNull();
    expect(f.accounts.eventApplied + g.accounts.eventApplied).toBe(0);
  });
});
