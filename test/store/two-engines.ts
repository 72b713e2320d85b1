/**
 * What the store tests share: unique names, a new account (its root key and one wallet), and the two engines a
 * store test runs on (SQLite with one store; PostgreSQL, when TEST_DATABASE_URL is set, with two stores on one
 * database as two processes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isoNoZone, openStore, type Store } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

let counter = 0;
/** A text no other call returns (ids, key hashes, wallet names). */
export const unique = (): string => `${++counter}-${Math.random().toString(36).slice(2, 12)}`;

/** A new account (its root key and one wallet): the account's id and the wallet. */
export async function newAccountWithWallet(store: Store): Promise<{ accountId: number; wallet: string }> {
  const wallet = `Wallet${unique()}`;
  const r = await store.createApiKeyWithWallet(`hash-account-${unique()}`, {
    publicKey: wallet,
    createdAt: isoNoZone(new Date()),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  });
  return { accountId: r.apiKey.id, wallet };
}

/** A new account; returns its id. */
export async function newAccount(store: Store): Promise<number> {
  return (await newAccountWithWallet(store)).accountId;
}

/** One engine of a store test: how to open a store on it, and how to remove what the test left. */
export interface StoreTestEngine {
  name: string;
  twoStores: boolean;
  open: () => Promise<Store>;
  cleanup: () => Promise<void>;
}

/** The engines a store test runs on; `name` keeps its files and schema apart from other tests'. */
export function storeTestEngines(name: string): StoreTestEngine[] {
  const dir = mkdtempSync(join(tmpdir(), `${name}-store-`));
  const schema = freshSchemaName(name.replace(/-/g, "_"));
  const removeDir = async (): Promise<void> => rmSync(dir, { recursive: true, force: true });
  return [
    // better-sqlite3 blocks the event loop on a lock, so one SQLite store serves both "processes".
    {
      name: "sqlite",
      twoStores: false,
      open: () => openStore(`sqlite:${join(dir, "db.sqlite")}`, dir),
      cleanup: removeDir,
    },
    ...(TEST_DATABASE_URL !== undefined
      ? [
          {
            name: "postgres",
            twoStores: true,
            open: () => openStore(TEST_DATABASE_URL as string, dir, { pgSchema: schema, pgPoolSize: 5 }),
            cleanup: () => dropSchema(TEST_DATABASE_URL as string, schema),
          },
        ]
      : []),
  ];
}

/**
 * Opens the engine's two stores before the suite (one store twice on SQLite) and hands them to `set`; closes
 * them and removes what the suite left after it.
 */
export function useTwoStores(engine: StoreTestEngine, set: (a: Store, b: Store) => void): void {
  let a: Store | undefined;
  let b: Store | undefined;
  beforeAll(async () => {
    a = await engine.open();
    b = engine.twoStores ? await engine.open() : a;
    set(a, b);
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
    await engine.cleanup();
  });
}
