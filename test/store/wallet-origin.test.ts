/**
 * Issue 29 finding 5, the store half on SQLite (always) and PostgreSQL (when TEST_DATABASE_URL is set): a
 * wallet remembers the key that added it and whether it counts as the account's own for destination rules.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNoZone, openStore, type NewWallet, type Store } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const dir = mkdtempSync(join(tmpdir(), "wallet-origin-"));
const schema = freshSchemaName("worig");
const engines: { name: string; open: () => Promise<Store>; cleanup: () => Promise<void> }[] = [
  {
    name: "sqlite",
    open: () => openStore(`sqlite:${join(dir, "db.sqlite")}`, dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  },
  ...(TEST_DATABASE_URL !== undefined
    ? [
        {
          name: "postgres",
          open: () => openStore(TEST_DATABASE_URL, dir, { pgSchema: schema, pgPoolSize: 2 }),
          cleanup: () => dropSchema(TEST_DATABASE_URL as string, schema),
        },
      ]
    : []),
];

let counter = 0;
function wallet(origin?: NewWallet["origin"]): NewWallet {
  counter += 1;
  return {
    publicKey: `Wallet${counter}x${Math.random().toString(36).slice(2, 12)}`,
    createdAt: isoNoZone(new Date()),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
    ...(origin !== undefined ? { origin } : {}),
  };
}

describe.each(engines)("wallet origin on $name", (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await engine.open();
  });
  afterAll(async () => {
    await store.close();
    await engine.cleanup();
  });

  it("setup and vouched wallets are the account's own; a wallet added unvouched is not", async () => {
    const setupWallet = wallet();
    const { apiKey } = await store.createApiKeyWithWallet(`hash-origin-${Math.random()}`, setupWallet);
    const vouched = wallet({ keyId: apiKey.id, vouched: true });
    const unvouched = wallet({ keyId: apiKey.id, vouched: false });
    const plain = wallet();
    for (const w of [vouched, unvouched, plain]) await store.addWallet(apiKey.id, w, false);
    expect((await store.listVouchedWallets(apiKey.id)).sort()).toEqual(
      [setupWallet.publicKey, vouched.publicKey, plain.publicKey].sort(),
    );
    // Every wallet is still the account's to use: only the destination rule reads the flag.
    expect(await store.listWallets(apiKey.id)).toHaveLength(4);
  });
});
