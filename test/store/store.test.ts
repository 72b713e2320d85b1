/** The same Store suite on SQLite (always) and PostgreSQL (when TEST_DATABASE_URL is set). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, DuplicateWalletError, type NewWallet, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

let counter = 0;
function newWallet(): NewWallet {
  counter += 1;
  return {
    publicKey: `Wallet${String(counter).padStart(10, "0")}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString().slice(0, -1),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  };
}

async function newKey(store: Store): Promise<{ keyId: number; first: string }> {
  counter += 1;
  const w = newWallet();
  const r = await store.createApiKeyWithWallet(`hash-${counter}-${Math.random()}`, w);
  return { keyId: r.apiKey.id, first: w.publicKey };
}

async function defaults(store: Store, keyId: number): Promise<string[]> {
  return (await store.listWallets(keyId)).filter((w) => w.isDefault).map((w) => w.publicKey);
}

function storeSuite(
  name: string,
  open: () => Promise<Store>,
  rawExec: (statement: string) => Promise<void>,
  cleanup: () => Promise<void>,
): void {
  describe(`store on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup();
    });

    it("creates a key with its default wallet and finds the key by hash", async () => {
      const w = newWallet();
      const r = await store.createApiKeyWithWallet("hash-find-" + name, w);
      expect(r.wallet.isDefault).toBe(true);
      expect(r.wallet.createdAt).toBe(w.createdAt);
      expect((await store.findApiKeyByHash("hash-find-" + name))?.id).toBe(r.apiKey.id);
      expect(await store.findApiKeyByHash("nope")).toBeUndefined();
    });

    it("adds wallets as non-default unless asked, refuses duplicates per key", async () => {
      const { keyId, first } = await newKey(store);
      const b = await store.addWallet(keyId, newWallet(), false);
      expect(b.isDefault).toBe(false);
      const c = await store.addWallet(keyId, newWallet(), true);
      expect(c.isDefault).toBe(true);
      expect(await defaults(store, keyId)).toEqual([c.publicKey]);
      await expect(
        store.addWallet(keyId, { ...newWallet(), publicKey: first }, false),
      ).rejects.toBeInstanceOf(DuplicateWalletError);
      // another key may hold the same public key
      const other = await newKey(store);
      await expect(
        store.addWallet(other.keyId, { ...newWallet(), publicKey: first }, false),
      ).resolves.toBeTruthy();
    });

    it("keeps an execution's compute-unit price exactly as a u64, and null when absent", async () => {
      const { keyId, first } = await newKey(store);
      const priced = await store.insertExecution(
        newExecution(keyId, first, { computeUnitPriceMicroLamports: 9_000_000_000_000_000_001n }),
      );
      expect(priced.computeUnitPriceMicroLamports).toBe(9_000_000_000_000_000_001n);
      expect(
        (await store.insertExecution(newExecution(keyId, first))).computeUnitPriceMicroLamports,
      ).toBeNull();
      const listed = await store.listExecutions({ apiKeyId: keyId, limit: 10 });
      expect(new Set(listed.map((e) => e.computeUnitPriceMicroLamports))).toEqual(
        new Set([9_000_000_000_000_000_001n, null]),
      );
    });

    it("the database itself refuses two default wallets for one key", async () => {
      const { keyId } = await newKey(store);
      const b = await store.addWallet(keyId, newWallet(), false);
      // Bypass the store's transactional rules: the partial unique index must still refuse.
      await expect(
        rawExec(
          `update wallets set is_default = 1 where api_key_id = ${keyId} and public_key = '${b.publicKey}'`,
        ),
      ).rejects.toThrow(/unique/i);
      expect(await defaults(store, keyId)).toHaveLength(1);
    });

    it("set default moves the flag; unknown or foreign wallet gives undefined", async () => {
      const { keyId, first } = await newKey(store);
      const b = await store.addWallet(keyId, newWallet(), false);
      expect((await store.setDefaultWallet(keyId, b.publicKey))?.isDefault).toBe(true);
      expect(await defaults(store, keyId)).toEqual([b.publicKey]);
      expect((await store.setDefaultWallet(keyId, first))?.publicKey).toBe(first);
      expect(await defaults(store, keyId)).toEqual([first]);
      const other = await newKey(store);
      expect(await store.setDefaultWallet(keyId, other.first)).toBeUndefined();
      expect(await store.setDefaultWallet(keyId, "missing")).toBeUndefined();
    });

    it("delink removes the wallet and its executions; the oldest remaining becomes default", async () => {
      const { keyId, first } = await newKey(store);
      const b = await store.addWallet(keyId, newWallet(), false);
      const c = await store.addWallet(keyId, newWallet(), true);
      for (const [id, wallet] of [
        ["e1-" + name + keyId, c.publicKey],
        ["e2-" + name + keyId, first],
      ] as const) {
        await store.insertExecution({
          id,
          apiKeyId: keyId,
          kind: "trade",
          wallet,
          wallets: [wallet],
          signatures: [],
          bundleId: null,
          status: "pending",
          confirmationStatus: null,
          request: { amount: 1n },
          response: null,
          error: null,
          timings: null,
        });
      }
      expect(await store.deleteWallet(keyId, c.publicKey)).toBe(true);
      expect(await defaults(store, keyId)).toEqual([first]);
      const left = await store.listExecutions({ apiKeyId: keyId, limit: 10 });
      expect(left.map((e) => e.wallet)).toEqual([first]);
      expect(left[0]?.request).toEqual({ amount: "1" });
      expect(await store.deleteWallet(keyId, c.publicKey)).toBe(false);
      expect(await store.deleteWallet(keyId, first)).toBe(true);
      expect(await defaults(store, keyId)).toEqual([b.publicKey]);
      expect(await store.deleteWallet(keyId, b.publicKey)).toBe(true);
      expect(await store.listWallets(keyId)).toEqual([]);
      expect(await store.findDefaultWallet(keyId)).toBeUndefined();
      // a key with no wallets gets its next wallet as default
      expect((await store.addWallet(keyId, newWallet(), false)).isDefault).toBe(true);
    });

    it("keeps exactly one default under 20 concurrent set-default and delink calls", async () => {
      for (let round = 0; round < 3; round++) {
        const { keyId } = await newKey(store);
        const ws = [];
        for (let i = 0; i < 12; i++) ws.push((await store.addWallet(keyId, newWallet(), false)).publicKey);
        const ops: Promise<unknown>[] = [];
        for (let i = 0; i < 20; i++) {
          const target = ws[(i * 7 + round) % ws.length] as string;
          ops.push(i % 3 === 0 ? store.deleteWallet(keyId, target) : store.setDefaultWallet(keyId, target));
        }
        const results = await Promise.allSettled(ops);
        expect(results.filter((r) => r.status === "rejected")).toEqual([]);
        const remaining = await store.listWallets(keyId);
        expect(remaining.length).toBeGreaterThan(0);
        expect(remaining.filter((w) => w.isDefault)).toHaveLength(1);
      }
    });

    it("delinking every wallet concurrently leaves zero defaults and no error", async () => {
      const { keyId, first } = await newKey(store);
      const ws = [first];
      for (let i = 0; i < 9; i++) ws.push((await store.addWallet(keyId, newWallet(), false)).publicKey);
      const ops = ws.flatMap((w) => [store.deleteWallet(keyId, w), store.setDefaultWallet(keyId, w)]);
      await Promise.all(ops);
      expect(await store.listWallets(keyId)).toEqual([]);
    });

    it("executions: insert, update, list with filters and paging", async () => {
      const { keyId, first } = await newKey(store);
      for (let i = 0; i < 5; i++) {
        await store.insertExecution({
          id: `x-${name}-${keyId}-${i}`,
          apiKeyId: keyId,
          kind: i % 2 === 0 ? "trade" : "transfer",
          wallet: first,
          wallets: [first],
          signatures: [`sig${i}`],
          bundleId: null,
          status: "pending",
          confirmationStatus: null,
          request: { i },
          response: null,
          error: null,
          timings: null,
          createdAt: `2026-01-01T00:00:0${i}.000`,
        });
      }
      const upd = await store.updateExecution(`x-${name}-${keyId}-0`, {
        status: "confirmed",
        confirmationStatus: "confirmed",
        response: { signature: "sig0" },
        timings: { total: 3 },
      });
      expect(upd?.status).toBe("confirmed");
      expect(upd?.response).toEqual({ signature: "sig0" });
      expect(await store.updateExecution("missing", { status: "failed" })).toBeUndefined();
      const all = await store.listExecutions({ apiKeyId: keyId, limit: 10 });
      expect(all.map((e) => e.signatures[0])).toEqual(["sig4", "sig3", "sig2", "sig1", "sig0"]);
      const trades = await store.listExecutions({ apiKeyId: keyId, kind: "trade", limit: 2, offset: 1 });
      expect(trades.map((e) => e.signatures[0])).toEqual(["sig2", "sig0"]);
      expect(await store.listExecutions({ apiKeyId: keyId, wallet: "other", limit: 10 })).toEqual([]);
    });

    it("rate-limit hits: one per window per key, atomic under concurrency", async () => {
      const key = `ip-${name}-${Math.random()}`;
      const first = await Promise.all(
        Array.from({ length: 10 }, () => store.hitRateLimit(key, 1_000_000, 5000)),
      );
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await store.hitRateLimit(key, 1_004_999, 5000)).toBe(false);
      expect(await store.hitRateLimit(key, 1_005_000, 5000)).toBe(true);
      expect(await store.hitRateLimit("other-" + key, 1_005_000, 5000)).toBe(true);
    });

    it("ping answers", async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

const sqliteDir = mkdtempSync(join(tmpdir(), "lasertrade-store-"));
const sqliteFile = join(sqliteDir, "store.sqlite");
storeSuite(
  "sqlite",
  () => openStore(`sqlite:${sqliteFile}`, sqliteDir),
  async (statement) => {
    const db = new BetterSqlite3(sqliteFile);
    try {
      db.exec(statement);
    } finally {
      db.close();
    }
  },
  async () => rmSync(sqliteDir, { recursive: true, force: true }),
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("store");
  storeSuite(
    "postgres",
    () => openStore(pgUrl, "./data", { pgSchema: schema }),
    async (statement) => {
      const c = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
      await c.connect();
      try {
        await c.query(statement);
      } finally {
        await c.end();
      }
    },
    () => dropSchema(pgUrl, schema),
  );
} else {
  describe.skip("store on postgres (TEST_DATABASE_URL not set)", () => {
    it("skipped", () => {});
  });
}
