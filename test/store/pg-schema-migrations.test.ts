/**
 * openStore with a PostgreSQL schema per user (how tests isolate themselves on one database): a schema
 * migrates even while another schema of the same database already holds Kysely's migration tables.
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

describe.skipIf(TEST_DATABASE_URL === undefined)("PostgreSQL schema per store", () => {
  it("migrates a new schema while another schema of the database is already migrated", async () => {
    const url = TEST_DATABASE_URL!;
    const [a, b] = [freshSchemaName("mig"), freshSchemaName("mig")];
    try {
      const first = await openStore(url, "./data", { pgSchema: a, pgPoolSize: 1 });
      await first.close();
      const second = await openStore(url, "./data", { pgSchema: b, pgPoolSize: 1 });
      expect(await second.listWallets(1)).toEqual([]);
      await second.close();
    } finally {
      await dropSchema(url, a);
      await dropSchema(url, b);
    }
  });
});
