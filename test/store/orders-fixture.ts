/**
 * What the orders store tests share: an account to own orders, an order record, and the two engines (SQLite
 * with one store; PostgreSQL, when TEST_DATABASE_URL is set, with two stores on one database as two processes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isoNoZone, openStore, type NewOrder, type Store } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

let counter = 0;
/** A text no other call returns (ids, key hashes, wallet names). */
export const unique = (): string => `${++counter}-${Math.random().toString(36).slice(2, 12)}`;

/** A new account (its root key and one wallet); returns the account's id. */
export async function newAccount(store: Store): Promise<number> {
  const r = await store.createApiKeyWithWallet(`hash-orders-${unique()}`, {
    publicKey: `Wallet${unique()}`,
    createdAt: isoNoZone(new Date()),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  });
  return r.apiKey.id;
}

/** An open take-profit of `accountId`'s root key, with `over` on top. */
export const order = (accountId: number, over: Partial<NewOrder> = {}): NewOrder => ({
  id: `ord_${unique()}`,
  accountId,
  keyId: accountId,
  kind: "take_profit",
  side: "sell",
  mint: "Mint1111",
  wallet: "Wallet1111",
  spec: "{}",
  expiresAt: null,
  peak: null,
  ...over,
});

/** One engine of a store test: how to open a store on it, and how to remove what the test left. */
export interface OrderTestEngine {
  name: string;
  twoStores: boolean;
  open: () => Promise<Store>;
  cleanup: () => Promise<void>;
}

/** The engines a store test runs on; `name` keeps its files and schema apart from other tests'. */
export function orderTestEngines(name: string): OrderTestEngine[] {
  const dir = mkdtempSync(join(tmpdir(), `${name}-store-`));
  const schema = freshSchemaName(name.replace(/-/g, "_"));
  const removeDir = async (): Promise<void> => rmSync(dir, { recursive: true, force: true });
  return [
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
