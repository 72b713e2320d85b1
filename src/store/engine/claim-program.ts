/**
 * A claim's statements written once for both engines, as a generator: it yields each compiled statement and is
 * given back the statement's rows, so the same code decides what to write next on SQLite and PostgreSQL. On
 * SQLite the whole program runs in one synchronous `begin immediate … commit` on the connection itself (Kysely's
 * transaction, executor and connection mutex cost more than the statements of a fire's claim, which is on the
 * fire's critical path); on PostgreSQL in a Kysely transaction.
 */
import type { CompiledQuery, Kysely, SqliteDatabase, Transaction } from "kysely";
import type { Database } from "../schema.js";

/** A program of statements: yields each one, receives its rows, returns the claim's answer. */
export type ClaimProgram<T> = Generator<CompiledQuery, T, unknown[]>;

/** The rows of one statement run synchronously on better-sqlite3 (a write without `returning`: none). */
function rowsOn<R>(database: SqliteDatabase, query: CompiledQuery<R>): R[] {
  const stmt = database.prepare(query.sql);
  if (stmt.reader) return stmt.all(query.parameters) as R[];
  stmt.run(query.parameters);
  return [];
}

/**
 * `f` run synchronously on the SQLite connection: at once when no transaction is open on it (nothing can interleave
 * with a synchronous call, and the only state another caller can leave on the connection across its awaits is an
 * open transaction), else once Kysely's connection is free, like any query.
 */
function nowOnSqlite<T>(
  db: Kysely<Database>,
  sqlite: SqliteDatabase & { readonly inTransaction?: boolean },
  f: () => T,
): Promise<T> {
  if (sqlite.inTransaction === false) {
    try {
      return Promise.resolve(f());
    } catch (err) {
      // A statement still streaming on the connection: wait for Kysely's connection instead.
      if (!(err instanceof TypeError && err.message.includes("busy executing"))) return Promise.reject(err);
    }
  }
  return db.connection().execute(() => Promise.resolve().then(f));
}

/** Runs `program` in one transaction (see the file comment); it commits whatever the program answers. */
export function runClaimProgram<T>(
  db: Kysely<Database>,
  sqlite: (SqliteDatabase & { readonly inTransaction?: boolean }) | undefined,
  program: () => ClaimProgram<T>,
): Promise<T> {
  if (sqlite !== undefined) return nowOnSqlite(db, sqlite, () => runOnSqlite(sqlite, program()));
  return db.transaction().execute((trx) => runInTransaction(trx, program()));
}

/** Runs `p`'s statements inside `trx` (a transaction already open). */
export async function runInTransaction<T>(trx: Transaction<Database>, p: ClaimProgram<T>): Promise<T> {
  let step = p.next();
  while (step.done !== true) step = p.next((await trx.executeQuery(step.value)).rows);
  return step.value;
}

/** Runs `p` synchronously in its own `begin immediate … commit` on the SQLite connection (rolled back on a throw). */
function runOnSqlite<T>(sqlite: SqliteDatabase, p: ClaimProgram<T>): T {
  const exec = (text: string) => sqlite.prepare(text).run([]);
  exec("begin immediate");
  try {
    let step = p.next();
    while (step.done !== true) step = p.next(rowsOn(sqlite, step.value));
    exec("commit");
    return step.value;
  } catch (err) {
    try {
      exec("rollback");
    } catch {
      // Already rolled back by SQLite itself (some I/O errors end the transaction).
    }
    throw err;
  }
}
