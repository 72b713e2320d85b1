/** Chooses the engine from DATABASE_URL, opens it, applies the migrations. */
import { ensurePrivateDir, ensurePrivateFile } from "../../core/private-files.js";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Redis } from "ioredis";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import type pg from "pg";
import { sqliteExecutionWriter, type ExecutionWriter } from "../executions/execution-statements.js";
import { kyselyStore, type StoreEventOptions } from "../kysely-store.js";
import { migrationProvider } from "../migrations.js";
import { isRelaxedGroupWrite, withCachedStatements, type SqliteConnection } from "./sqlite-statements.js";
import type { QueryRunner } from "./query-runner.js";
import { sqliteGroupCommit } from "../executions/sqlite-group-commit.js";
import { sqliteDirectReads } from "./sqlite-reads.js";
import type { Database } from "../schema.js";
import type { Store } from "../types.js";

export interface OpenStoreOptions {
  clock?: () => Date;
  /** PostgreSQL schema to use (created if missing); tests use one per file to isolate themselves. */
  pgSchema?: string;
  /** PostgreSQL pool size. Default 10. */
  pgPoolSize?: number;
  /**
   * The process's Redis client (REDIS_URL): with PostgreSQL, event wake-ups between processes go through Redis
   * pub/sub instead of LISTEN/NOTIFY (issue 20), published on this client. Ignored with SQLite (one process:
   * the in-process bus is all there is). The caller closes it, after the store.
   */
  redis?: Redis;
  /**
   * PostgreSQL: concurrent request-path writes share one statement and commit (pg-group-commit.ts). Default
   * true; false writes each alone (the bench's A/B, `bench/store-lanes.ts`).
   */
  pgGroupCommit?: boolean;
}

/**
 * SQLite's page cache of the one connection, in KiB (issue 18, peak RSS). better-sqlite3 builds SQLite with 16 MB
 * (SQLITE_DEFAULT_CACHE_SIZE=-16000) where SQLite's own default is 2 MB; the cache fills as the file grows and
 * is never given back, so under the bench it was 16 of the 22 MB glibc's main arena grew by. A page not in it is
 * read from the OS's page cache (a pread of 4 KiB): the file stays cached by the OS, outside the process's RSS.
 */
export const SQLITE_CACHE_KIB = 2000;

/** The connection settings of a SQLite store: WAL, the synchronous level, busy timeout, foreign keys, cache size. */
export function applySqlitePragmas(file: BetterSqlite3.Database, synchronous: "FULL" | "NORMAL"): void {
  file.pragma("journal_mode = WAL");
  // FULL (the default) syncs the WAL on every commit: a recorded execution survives a power loss. NORMAL
  // syncs at checkpoints only; a process crash still loses nothing, since the WAL is in the OS's cache.
  file.pragma(`synchronous = ${synchronous}`);
  file.pragma("busy_timeout = 5000");
  file.pragma("foreign_keys = ON");
  file.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
}

/**
 * Where a SQLite store lives (`sqlite::memory:`, `sqlite:<path>`, or, when undefined, a file in dataDir) and
 * its `synchronous` setting: `?synchronous=normal` after the path trades durability across an OS crash or
 * power loss (never across a process crash) for about 5 ms less per trade (docs/configuration.md).
 */
export function sqliteTarget(
  databaseUrl: string | undefined,
  dataDir: string,
): { path: string; synchronous: "FULL" | "NORMAL" } {
  if (databaseUrl === undefined) {
    ensurePrivateDir(dataDir);
    return { path: join(dataDir, "lasertrade.sqlite"), synchronous: "FULL" };
  }
  const rest = databaseUrl.replace(/^sqlite:(\/\/)?/, "");
  const q = rest.lastIndexOf("?");
  const file = q >= 0 ? rest.slice(0, q) : rest;
  const params = new URLSearchParams(q >= 0 ? rest.slice(q + 1) : "");
  for (const name of params.keys()) {
    if (name !== "synchronous")
      throw new Error(`DATABASE_URL: unknown SQLite option "${name}" (known: synchronous)`);
  }
  const mode = (params.get("synchronous") ?? "full").toLowerCase();
  if (mode !== "full" && mode !== "normal") {
    throw new Error(`DATABASE_URL: synchronous must be "full" or "normal" (got "${mode}")`);
  }
  return {
    path: file === "" || file === ":memory:" ? ":memory:" : file,
    synchronous: mode === "normal" ? "NORMAL" : "FULL",
  };
}

/** Opens the store named by databaseUrl (postgres:// or sqlite:, default SQLite in dataDir) and migrates it. */
export async function openStore(
  databaseUrl: string | undefined,
  dataDir: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const isPg = databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(databaseUrl);
  let db: Kysely<Database>;
  let migrationTableSchema: string | undefined;
  let writer: ExecutionWriter;
  let syncedWrites: QueryRunner | undefined;
  let prepared: QueryRunner | undefined;
  let sqlite: SqliteConnection | undefined;
  let eventOptions: StoreEventOptions = {};
  // PostgreSQL: the outcome updates' pool (pg-relaxed-writes.ts), closed with the store.
  let relaxed: pg.Pool | undefined;
  if (isPg) {
    // Loaded only here: a SQLite service does not load `pg` at all (issue 18, peak RSS).
    const { openPg } = await import("./open-pg.js");
    ({ db, migrationTableSchema, writer, syncedWrites, prepared, eventOptions, relaxed } = await openPg(
      databaseUrl,
      options,
    ));
  } else {
    const { path, synchronous } = sqliteTarget(databaseUrl, dataDir);
    if (path !== ":memory:") ensurePrivateFile(path);
    const file = new BetterSqlite3(path);
    applySqlitePragmas(file, synchronous);
    // The writes that may commit without their own fsync: only a FULL database has one to skip.
    const relaxed = synchronous === "FULL" ? isRelaxedGroupWrite : undefined;
    const database = withCachedStatements(file, relaxed !== undefined ? { relaxed } : {});
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    // Group commit (issue 18): the request path's writes of concurrent requests share one commit (one fsync).
    syncedWrites = sqliteGroupCommit(db, database, relaxed);
    writer = sqliteExecutionWriter(db, syncedWrites);
    // The request path's compiled-once reads (key, wallet, webhook listing) without Kysely's executor when no
    // transaction is open on the connection (sqlite-reads.ts).
    prepared = sqliteDirectReads(db, database, file);
    sqlite = database;
  }
  const dialect = isPg ? "postgres" : "sqlite";
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(migrationTableSchema !== undefined ? { migrationTableSchema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) {
    await db.destroy();
    await relaxed?.end();
    throw error instanceof Error ? error : new Error(String(error));
  }
  const store = kyselyStore(db, dialect, options.clock, eventOptions, writer, syncedWrites, prepared, sqlite);
  const outcomes = relaxed;
  // Once, on every engine: a second close (a shutdown signal during shutdown, a test's cleanup) answers the
  // first one's promise instead of throwing from pg-pool or a destroyed driver.
  let closed: Promise<void> | undefined;
  return {
    ...store,
    close: () =>
      (closed ??= (async () => {
        await store.close();
        await outcomes?.end();
      })()),
  };
}
