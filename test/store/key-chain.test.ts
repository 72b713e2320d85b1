/**
 * Issue 29 (key chains) in the store, on SQLite (always) and PostgreSQL (TEST_DATABASE_URL): a sub-key remembers
 * its creator and is read with its ancestors; revoking a key revokes the keys it created, transitively; a
 * reservation charges every capped ancestor in its transaction, and concurrent spends from two stores through
 * sibling keys never pass the parent's cap.
 */
import { describe, expect, it } from "vitest";
import { SpendCapExceededError, type KeyRecord, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { newAccountWithWallet, storeTestEngines, unique, useTwoStores } from "./two-engines.js";

const SOL = 1_000_000_000n;

async function subKey(
  store: Store,
  accountId: number,
  createdBy: number | null,
): Promise<KeyRecord & { hash: string }> {
  const hash = `hash-sub-${unique()}`;
  const k = await store.insertSubKey({
    accountId,
    keyHash: hash,
    name: "bot",
    scopes: ["read", "trade", "keys"],
    wallets: null,
    expiresAt: null,
    policy: null,
    createdAt: new Date().toISOString(),
    createdBy,
  });
  return { ...k, hash };
}

const engines = storeTestEngines("key-chain");

describe.each(engines)("key chains in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("reads a key with its ancestors, creator first; a key of the root key has none", async () => {
    const { accountId } = await newAccountWithWallet(a);
    const p = await subKey(a, accountId, null);
    const c = await subKey(a, accountId, p.id);
    const g = await subKey(a, accountId, c.id);
    expect(p.createdBy).toBeNull();
    expect(g.createdBy).toBe(c.id);
    const byHash = await b.findKeyByHash(g.hash);
    expect(byHash?.ancestors?.map((k) => k.id)).toEqual([c.id, p.id]);
    expect(byHash?.ancestors?.map((k) => k.createdBy)).toEqual([p.id, null]);
    expect((await b.findKey(accountId, g.id))?.ancestors?.map((k) => k.id)).toEqual([c.id, p.id]);
    expect((await b.findKeyByHash(p.hash))?.ancestors).toEqual([]);
    const root = await b.findKey(accountId, accountId);
    expect(root?.root).toBe(true);
    expect(root?.ancestors).toEqual([]);
  });

  it("revokes a key and every key below it, not its creator, siblings or other accounts", async () => {
    const { accountId } = await newAccountWithWallet(a);
    const other = await newAccountWithWallet(a);
    const p = await subKey(a, accountId, null);
    const c1 = await subKey(a, accountId, p.id);
    const c2 = await subKey(a, accountId, p.id);
    const g = await subKey(a, accountId, c1.id);
    const sibling = await subKey(a, accountId, null);
    const foreign = await subKey(a, other.accountId, null);
    expect(await b.revokeKeyTree(other.accountId, p.id, new Date().toISOString())).toEqual([]);
    const revoked = await b.revokeKeyTree(accountId, c1.id, new Date().toISOString());
    expect(revoked).toEqual([c1.id, g.id]);
    const live = (await a.listKeys(accountId)).map((k) => k.id);
    expect(live).toEqual([accountId, p.id, c2.id, sibling.id]);
    expect(await b.revokeKeyTree(accountId, p.id, new Date().toISOString())).toEqual([p.id, c2.id]);
    expect((await a.listKeys(accountId)).map((k) => k.id)).toEqual([accountId, sibling.id]);
    expect((await a.listKeys(other.accountId)).map((k) => k.id)).toEqual([other.accountId, foreign.id]);
    // The root key is never part of a tree.
    expect(await b.revokeKeyTree(accountId, accountId, new Date().toISOString())).toEqual([]);
  });

  it("charges each capped ancestor in the reservation's transaction and names the key whose cap refused", async () => {
    const acct = await newAccountWithWallet(a);
    const p = await subKey(a, acct.accountId, null);
    const c = await subKey(a, acct.accountId, p.id);
    const now = Date.now();
    const res = (lamports: bigint, ownCap: bigint | null) => ({
      keyId: c.id,
      lamports,
      capLamports: ownCap,
      nowMs: now,
      sinceMs: now - 86_400_000,
      alsoCharge: [{ keyId: p.id, capLamports: 2n * SOL }],
    });
    await a.insertExecutionReserving(newExecution(acct.accountId, acct.wallet), res(SOL, null));
    expect(await a.spentLamports(p.id, 0)).toBe(SOL);
    expect(await a.spentLamports(c.id, 0)).toBe(0n); // not capped itself: not charged
    await a.insertExecutionReserving(newExecution(acct.accountId, acct.wallet), res(SOL / 2n, 5n * SOL));
    expect(await a.spentLamports(c.id, 0)).toBe(SOL / 2n);
    const e = newExecution(acct.accountId, acct.wallet);
    const err = await a.insertExecutionReserving(e, res(SOL, 5n * SOL)).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(SpendCapExceededError);
    expect(err).toMatchObject({ capKeyId: p.id, capLamports: 2n * SOL, usedLamports: (3n * SOL) / 2n });
    expect(await a.spentLamports(p.id, 0)).toBe((3n * SOL) / 2n);
  });

  it("40 concurrent spends through 4 sibling keys from two stores never pass the parent's cap", async () => {
    const acct = await newAccountWithWallet(a);
    const p = await subKey(a, acct.accountId, null);
    const kids = await Promise.all([0, 1, 2, 3].map(() => subKey(a, acct.accountId, p.id)));
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const kid = kids[i % 4]!;
        try {
          await (i % 2 === 0 ? a : b).insertExecutionReserving(newExecution(acct.accountId, acct.wallet), {
            keyId: kid.id,
            lamports: SOL,
            capLamports: 3n * SOL, // each child alone could spend 3
            nowMs: now,
            sinceMs: now - 86_400_000,
            alsoCharge: [{ keyId: p.id, capLamports: 7n * SOL }],
          });
          return true;
        } catch (err) {
          if (err instanceof SpendCapExceededError) return false;
          throw err;
        }
      }),
    );
    expect(results.filter(Boolean)).toHaveLength(7);
    expect(await a.spentLamports(p.id, 0)).toBe(7n * SOL);
    let children = 0n;
    for (const k of kids) children += await a.spentLamports(k.id, 0);
    expect(children).toBe(7n * SOL);
  });
});
