/**
 * A fresh database per test: a PostgreSQL database with a unique name (dropped at the end, even with
 * connections left open), or a SQLite file in a temporary directory.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A database made for one test. */
export interface TestDatabase {
  /** DATABASE_URL for the service. */
  url: string;
  kind: "postgres" | "sqlite";
  /** Drops the database (PostgreSQL) or deletes its directory (SQLite). */
  drop(): Promise<void>;
}

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

/**
 * Creates `lt_<prefix>_<random>` on the server of `serverUrl` (any database URL there, e.g.
 * TEST_DATABASE_URL) and returns the URL of the new database.
 */
export async function freshPgDatabase(serverUrl: string, prefix = "h"): Promise<TestDatabase> {
  if (!/^[a-z0-9]{1,16}$/.test(prefix)) throw new Error("prefix must be 1-16 lower-case letters/digits");
  const name = `lt_${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: "postgres",
    // FORCE (PostgreSQL 13+) ends sessions a killed service process left behind.
    drop: () =>
      withClient(serverUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** A SQLite database file in a new temporary directory. */
export function freshSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "lt-harness-db-"));
  return {
    url: `sqlite:${join(dir, "lasertrade.sqlite")}`,
    kind: "sqlite",
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
