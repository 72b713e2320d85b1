/**
 * A migration test on both engines: `upgrade` runs on a fresh in-memory SQLite database and, with
 * TEST_DATABASE_URL, in a fresh PostgreSQL schema (dropped after), each through a Kysely of its own.
 */
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, describe, it } from "vitest";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

/** What a migration test runs on each engine (`schema`: PostgreSQL's, for the migration table). */
export type Upgrade = (db: Kysely<unknown>, dialect: "sqlite" | "postgres", schema?: string) => Promise<void>;

/** `describe(title)` with one test per engine running `upgrade`; `name` keeps its PostgreSQL schema apart. */
export function describeUpgrade(title: string, name: string, upgrade: Upgrade): void {
  describe(title, () => {
    it("SQLite", async () => {
      const db = new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }),
      });
      try {
        await upgrade(db, "sqlite");
      } finally {
        await db.destroy();
      }
    });

    describe.skipIf(TEST_DATABASE_URL === undefined)("PostgreSQL", () => {
      const schema = freshSchemaName(name);
      afterAll(async () => dropSchema(TEST_DATABASE_URL!, schema));
      it("PostgreSQL", async () => {
        const setup = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await setup.connect();
        await setup.query(`create schema ${schema}`);
        await setup.end();
        const pool = new pg.Pool({
          connectionString: TEST_DATABASE_URL,
          options: `-c search_path=${schema}`,
        });
        const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
        try {
          await upgrade(db, "postgres", schema);
        } finally {
          await db.destroy();
        }
      });
    });
  });
}
