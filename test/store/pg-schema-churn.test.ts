/**
 * Opening a store on PostgreSQL while other schemas of the same database are created and dropped (other
 * deployments, other test files cleaning up): Kysely's stock introspector failed then with `schema "..." does
 * not exist` (it called has_schema_privilege on every schema's name), which made a store fail to open.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openStore } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("churn");

describe.skipIf(TEST_DATABASE_URL === undefined)("store open on PostgreSQL", () => {
  afterAll(async () => {
    await dropSchema(TEST_DATABASE_URL as string, schema);
  });

  it("opens every time while other schemas are created and dropped beside it", async () => {
    const url = TEST_DATABASE_URL as string;
    const churner = new pg.Client({ connectionString: url });
    await churner.connect();
    const others = [0, 1, 2].map(() => freshSchemaName("churnother"));
    let stop = false;
    let churned = 0;
    const churn = (async () => {
      while (!stop) {
        const s = others[churned % others.length] as string;
        await churner.query(`create schema ${s}; create table ${s}.t (id serial primary key, v text)`);
        await churner.query(`drop schema ${s} cascade`);
        churned += 1;
      }
    })();
    let opened = 0;
    try {
      const until = Date.now() + 4000;
      while (Date.now() < until) {
        const store = await openStore(url, "/tmp", { pgSchema: schema, pgPoolSize: 1 });
        await store.close();
        await store.close(); // a second close is a no-op
        opened += 1;
      }
    } finally {
      stop = true;
      await churn;
      await churner.end();
    }
    expect(opened).toBeGreaterThan(5);
    expect(churned).toBeGreaterThan(5);
  }, 30_000);
});
