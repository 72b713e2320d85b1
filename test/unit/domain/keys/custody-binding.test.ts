/**
 * The custody store's explicit per-request binding: the wrapper decides exactly the members
 * `CUSTODY_MEMBERS` names, and the app's route-level store refuses each of them (so a route can only reach
 * wallets and records through its request's own wrapper) while every other member passes through.
 */
import { describe, expect, it } from "vitest";
import {
  CUSTODY_MEMBERS,
  custodyStore,
  requestOnlyStore,
  type CustodyContext,
} from "../../../../src/domain/keys/custody-store.js";
import type { KeyRecord, Store, WalletRecord } from "../../../../src/store/index.js";

const wallet = (publicKey: string): WalletRecord => ({ publicKey }) as WalletRecord;

/** A store answering the members the tests call; nothing else is reached. */
function fakeStore(): Store {
  return {
    dialect: "sqlite",
    findWallet: async (_k: number, pk: string) => wallet(pk),
    findDefaultWallet: async () => wallet("Default1"),
    listWallets: async () => [wallet("Mine1"), wallet("Other1")],
    ping: async () => undefined,
  } as unknown as Store;
}

describe("custody binding", () => {
  it("the wrapper overrides exactly CUSTODY_MEMBERS", () => {
    const wrapped = custodyStore(fakeStore(), { current: () => undefined });
    expect(Object.keys(wrapped).sort()).toEqual([...CUSTODY_MEMBERS].sort());
  });

  it("the route-level store refuses every custody member and passes the rest through", async () => {
    const store = requestOnlyStore(fakeStore()) as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const m of CUSTODY_MEMBERS)
      await expect(store[m]!(1, "Mine1")).rejects.toThrow(/request's own store/);
    await expect(store.ping!()).resolves.toBeUndefined();
    expect((store as unknown as Store).dialect).toBe("sqlite");
  });

  it("a wrapper bound to a request applies that request's key binding, not another's", async () => {
    const key = (wallets: string[] | null) => ({ id: 1, accountId: 1, wallets, policy: null }) as KeyRecord;
    const bind = (ctx: CustodyContext) => custodyStore(fakeStore(), { current: () => ctx });
    const bound = bind({ key: key(["Mine1"]), wallets: new Set(), executionIds: [] });
    const open = bind({ key: key(null), wallets: new Set(), executionIds: [] });
    await expect(bound.findWallet(1, "Other1")).rejects.toMatchObject({ status: 403 });
    await expect(open.findWallet(1, "Other1")).resolves.toMatchObject({ publicKey: "Other1" });
    expect((await bound.listWallets(1)).map((w) => w.publicKey)).toEqual(["Mine1"]);
    expect((await open.listWallets(1)).map((w) => w.publicKey)).toEqual(["Mine1", "Other1"]);
  });

  it("answers the default wallet the binding check already read, without reading it again", async () => {
    let reads = 0;
    const store = { ...fakeStore(), findDefaultWallet: async () => (reads++, wallet("Default1")) } as Store;
    const key = { id: 2, accountId: 1, wallets: ["Default1"], policy: null } as KeyRecord;
    const ctx: CustodyContext = {
      key,
      wallets: new Set(),
      executionIds: [],
      defaultWallet: wallet("Default1"),
    };
    const bound = custodyStore(store, { current: () => ctx });
    await expect(bound.findDefaultWallet(1)).resolves.toMatchObject({ publicKey: "Default1" });
    expect(reads).toBe(0);
    // Another account's default is still read (and still bound-checked).
    await expect(bound.findDefaultWallet(7)).resolves.toMatchObject({ publicKey: "Default1" });
    expect(reads).toBe(1);
  });
});
