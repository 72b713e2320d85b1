/** Chooses the engine from DATABASE_URL, opens it, applies the migrations. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { kyselyStore } from "./kysely-store.js";
import { migrationProvider } from "./migrations.js";
import type { Database } from "./schema.js";
import type { Store } from "./types.js";

export interface OpenStoreOptions {
  clock?: () => Date;
  /** PostgreSQL schema to use (created if missing); tests use one per file to isolate themselves. */
  pgSchema?: string;
  /** PostgreSQL pool size. Default 10. */
  pgPoolSize?: number;
}

/** Where a SQLite store lives: `sqlite::memory:`, `sqlite:<path>`, or (undefined) a file in dataDir. */
function sqlitePath(databaseUrl: string | undefined, dataDir: string): string {
  if (databaseUrl === undefined) {
    mkdirSync(dataDir, { recursive: true });
    return join(dataDir, "lasertrade.sqlite");
  }
  const rest = databaseUrl.replace(/^sqlite:(\/\/)?/, "");
  return rest === "" || rest === ":memory:" ? ":memory:" : rest;
}

/** Opens the store named by databaseUrl (postgres:// or sqlite:, default SQLite in dataDir) and migrates it. */
export async function openStore(
  databaseUrl: string | undefined,
  dataDir: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const isPg = databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(databaseUrl);
  let db: Kysely<Database>;
  if (isPg) {
    const schema = options.pgSchema;
    if (schema !== undefined) {
      if (!/^[a-z_][a-z0-9_]*$/.test(schema))
        throw new Error("pgSchema must be a plain lower-case identifier");
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        await admin.query(`create schema if not exists ${schema}`);
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.pgPoolSize ?? 10,
      ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle client that loses its connection (database restart) emits 'error'; without a listener that
    // would crash the process. The pool drops the client and the next query reconnects or fails visibly.
    pool.on("error", () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const path = sqlitePath(databaseUrl, dataDir);
    const file = new BetterSqlite3(path);
    file.pragma("journal_mode = WAL");
    file.pragma("busy_timeout = 5000");
    file.pragma("foreign_keys = ON");
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  }
  const dialect = isPg ? "postgres" : "sqlite";
  // Kysely looks for its migration tables in every schema unless told which: with a schema per test on
  // one database, another schema's tables would make it skip creating this one's (and fail on them).
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(isPg && options.pgSchema !== undefined ? { migrationTableSchema: options.pgSchema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return kyselyStore(db, dialect, options.clock);
}
