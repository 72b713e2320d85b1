/**
 * Two stores in two schemas of one PostgreSQL database each migrate their own schema: the second does not
 * mistake the first one's migration tables for its own.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openStore } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

describe.skipIf(TEST_DATABASE_URL === undefined)("stores in two schemas of one database", () => {
  const url = TEST_DATABASE_URL!;
  const schemas = [freshSchemaName("sa"), freshSchemaName("sb")];
  afterAll(async () => {
    for (const s of schemas) await dropSchema(url, s);
  });

  it("each gets its own tables and migration record", async () => {
    for (const pgSchema of schemas) {
      const store = await openStore(url, "./data", { pgSchema });
      await store.close();
    }
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      for (const s of schemas) {
        const { rows } = await c.query<{ n: string }>(
          "select count(*) as n from pg_tables where schemaname = $1 and tablename in ('kysely_migration', 'executions')",
          [s],
        );
        expect(rows[0]!.n).toBe("2");
      }
    } finally {
      await c.end();
    }
  });
});
