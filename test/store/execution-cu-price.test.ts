/** Migration 0003: the compute-unit price of an execution round-trips exactly on SQLite and PostgreSQL. */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNoZone, openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

function suite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(name, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it("stores the price (up to u64), and null when absent", async () => {
      const wallet = `Wallet${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      const { apiKey } = await store.createApiKeyWithWallet(`hash-${randomUUID()}`, {
        publicKey: wallet,
        createdAt: isoNoZone(new Date()),
        ciphertext: "Y3Q=",
        nonce: "bm9uY2U=",
        tag: "dGFn",
        keyId: "k1",
      });
      const priced = await store.insertExecution(
        newExecution(apiKey.id, wallet, { computeUnitPriceMicroLamports: 9_000_000_000_000_000_001n }),
      );
      expect(priced.computeUnitPriceMicroLamports).toBe(9_000_000_000_000_000_001n);
      const plain = await store.insertExecution(newExecution(apiKey.id, wallet));
      expect(plain.computeUnitPriceMicroLamports).toBeNull();
      const listed = await store.listExecutions({ apiKeyId: apiKey.id, limit: 10 });
      expect(listed.map((e) => e.computeUnitPriceMicroLamports).sort()).toEqual(
        [9_000_000_000_000_000_001n, null].sort(),
      );
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "cu-price-"));
suite(
  "SQLite",
  () => openStore(`sqlite:${join(dir, "db.sqlite")}`, dir),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("cuprice");
  suite(
    "PostgreSQL",
    () => openStore(pgUrl, "./data", { pgSchema: schema }),
    () => dropSchema(pgUrl, schema),
  );
}
