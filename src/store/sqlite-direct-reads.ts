/**
 * The request path's compiled-once reads on SQLite (the API key by hash, a key's wallet, the enabled webhooks)
 * run on better-sqlite3's cached statement directly instead of through Kysely's driver. Kysely takes its one
 * connection's lock for every query (a mutex of promises, the driver and executor layers): about 5 KB of
 * garbage and 4 µs per read, three times the read itself (issue 18).
 *
 * The lock is there so nothing runs inside another request's open transaction. better-sqlite3 runs a
 * statement synchronously, so a read made while no transaction is open on the connection runs entirely
 * between two other statements: it sees what it would have seen had it taken the free lock at that moment
 * (a group commit or a Kysely transaction has either not begun or already ended; nothing is half-written).
 * While a transaction is open, the read waits for the lock through Kysely as before, so it never sees the
 * uncommitted writes of a transaction that may still roll back. Anything but a `select` goes through Kysely.
 */
import type { CompiledQuery, Kysely, QueryResult, SqliteDatabase } from "kysely";
import type { QueryRunner } from "./query-runner.js";
import type { Database } from "./schema.js";

/**
 * A QueryRunner for reads: `database` (the cached statements) when `connection` (the same better-sqlite3
 * file) has no open transaction, else Kysely's `db` over it.
 */
export function sqliteDirectReads(
  db: Kysely<Database>,
  database: SqliteDatabase,
  connection: { readonly inTransaction: boolean },
): QueryRunner {
  return async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    if (!connection.inTransaction && query.sql.startsWith("select ")) {
      return { rows: database.prepare(query.sql).all(query.parameters) as R[] };
    }
    return db.executeQuery<R>(query);
  };
}
