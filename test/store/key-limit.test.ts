/**
 * Issue 29 (finding 9): MAX_KEYS_PER_ACCOUNT holds in the store's insert, on SQLite (always) and PostgreSQL
 * (TEST_DATABASE_URL): concurrent creations from two stores ("processes") on one database never pass the cap,
 * revoked keys do not count, other accounts are not affected, and a sub-key's starting policy is stored.
 */
import { describe, expect, it } from "vitest";
import { KeyLimitError, type Store } from "../../src/store/index.js";
import { newAccount, storeTestEngines, unique, useTwoStores } from "./two-engines.js";

/** Inserts a sub-key under `max`; its id, or null when the cap refused it. */
async function insert(store: Store, accountId: number, max: number | undefined): Promise<number | null> {
  try {
    const k = await store.insertSubKey(
      {
        accountId,
        keyHash: `hash-sub-${unique()}`,
        name: "bot",
        scopes: ["read"],
        wallets: null,
        expiresAt: null,
        policy: null,
        createdAt: new Date().toISOString(),
      },
      max,
    );
    return k.id;
  } catch (err) {
    if (err instanceof KeyLimitError) return null;
    throw err;
  }
}

const engines = storeTestEngines("key-limit");

describe.each(engines)("MAX_KEYS_PER_ACCOUNT in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("40 concurrent creations from two stores under a cap of 7: exactly 7 keys", async () => {
    const account = await newAccount(a);
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => insert(i % 2 === 0 ? a : b, account, 7)),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(7);
    expect((await a.listKeys(account)).filter((k) => !k.root)).toHaveLength(7);
  });

  it("counts only unrevoked sub-keys of the account; without a cap nothing is refused", async () => {
    const account = await newAccount(a);
    const other = await newAccount(a);
    const first = await insert(a, account, 2);
    expect(await insert(a, account, 2)).not.toBeNull();
    expect(await insert(a, account, 2)).toBeNull();
    // Another account's keys are its own.
    expect(await insert(a, other, 2)).not.toBeNull();
    await a.updateKey(account, first!, { revokedAt: new Date().toISOString() });
    expect(await insert(a, account, 2)).not.toBeNull();
    expect(await insert(a, account, 2)).toBeNull();
    expect(await insert(a, account, undefined)).not.toBeNull();
  });

  it("stores the starting policy", async () => {
    const account = await newAccount(a);
    const k = await a.insertSubKey({
      accountId: account,
      keyHash: `hash-sub-${unique()}`,
      name: "capped",
      scopes: ["trade"],
      wallets: null,
      expiresAt: null,
      policy: { max_sol_per_24h: "1" },
      createdAt: new Date().toISOString(),
    });
    expect(k.policy).toEqual({ max_sol_per_24h: "1" });
    expect((await a.findKey(account, k.id))?.policy).toEqual({ max_sol_per_24h: "1" });
  });
});
