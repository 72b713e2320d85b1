/**
 * The request path's compiled-once reads on SQLite, run on the connection without Kysely's executor (issue 18).
 * Every trade reads its API key and its wallet, and the webhook worker lists the endpoints after every event
 * wake: through `db.executeQuery` each read took Kysely's connection mutex, several promise turns
 * (`provideConnection`, the driver's `executeQuery`, the result transform) and released it again, while the
 * statement itself is a cached better-sqlite3 statement that runs synchronously in a few microseconds.
 *
 * Why a direct read is sound: better-sqlite3 is synchronous, so nothing else runs on the connection while the
 * statement does. The only state another request can leave on the connection between two of its awaits is an
 * open transaction (a Kysely transaction holds the mutex across awaits; the group commit runs begin..commit in
 * one synchronous call, so it never leaves one open). Inside such a transaction a read would see that request's
 * uncommitted writes, so then the read takes Kysely's path and waits for the mutex as before. With no
 * transaction open, the read is SQLite's own autocommit read of committed rows: the same rows Kysely's path
 * would return once the mutex came free, only without queueing behind work that does not order it (a caller's
 * own earlier writes are answered after their commit, so it never overtakes those). SQLite's `inTransaction`
 * (`sqlite3_get_autocommit`) is false whatever began the transaction (Kysely, a raw `begin`, a savepoint).
 * Nothing in the store streams with `iterate`; were a stream open (the connection busy across awaits),
 * better-sqlite3 refuses the statement and the read waits for the mutex instead.
 */
import type { CompiledQuery, Kysely, QueryResult, SqliteDatabase } from "kysely";
import type { QueryRunner } from "./query-runner.js";
import type { Database } from "../schema.js";

/**
 * A QueryRunner (for compiledOnce's reads) over one SQLite connection: a read runs on `database`'s cached
 * statement at once when `connection` has no transaction open, else (and for any write) through `db`, Kysely's
 * instance over the same connection. The result has the shape Kysely's SQLite driver gives a read: `{ rows }`.
 */
export function sqliteDirectReads(
  db: Kysely<Database>,
  database: SqliteDatabase,
  connection: { readonly inTransaction: boolean },
): QueryRunner {
  return <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    if (connection.inTransaction) return db.executeQuery<R>(query);
    let rows: R[];
    try {
      const stmt = database.prepare(query.sql);
      // A write keeps Kysely's path (and its mutex): this runner is for reads.
      if (!stmt.reader) return db.executeQuery<R>(query);
      rows = stmt.all(query.parameters) as R[];
    } catch (e) {
      if (e instanceof TypeError && e.message.includes("busy executing")) return db.executeQuery<R>(query);
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return Promise.resolve({ rows });
  };
}
