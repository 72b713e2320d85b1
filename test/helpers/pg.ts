/** PostgreSQL test isolation: a fresh schema per test file, dropped afterwards. */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The database of PostgreSQL tests, or undefined (those tests are skipped). */
export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL: string | undefined = process.env.TEST_REDIS_URL || undefined;

/** A unique schema name for one test file. */
export function freshSchemaName(prefix = "t"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** Drops a schema made by a test (cascade). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await c.end();
  }
}
