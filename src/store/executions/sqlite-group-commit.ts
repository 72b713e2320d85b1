/**
 * Group commit of the synced writes of the request path on SQLite (issue 18). With `synchronous=FULL` every
 * commit waits for an `fsync` of the WAL (about 1 ms on a virtual disk), and better-sqlite3 waits on the
 * event loop's thread: at two synced commits per trade (the execution's pending record, the activity row) the
 * process could not pass about 500 trades/s whatever else it did. Here the writes queued during one turn of
 * the event loop run in one transaction, committed (and synced) once, and each caller is answered after that
 * commit: a pending execution record is still on disk before anything is sent, as before.
 *
 * Each write of a group runs inside its own savepoint, so one that fails (a constraint, a trigger) is rolled
 * back alone and fails only its own caller; a failed commit fails them all. The group holds Kysely's one
 * connection while it runs (synchronously, with nothing awaited in between), so it never lands inside another
 * request's open transaction.
 */
import type { CompiledQuery, Kysely, QueryResult, SqliteDatabase } from "kysely";
import type { QueryRunner } from "../engine/query-runner.js";
import type { Database } from "../schema.js";

interface Queued {
  query: CompiledQuery;
  resolve: (r: QueryResult<unknown>) => void;
  reject: (e: unknown) => void;
}

/** One statement as Kysely's SQLite driver runs it (same result shape). */
function runOne(database: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const stmt = database.prepare(query.sql);
  if (stmt.reader) return { rows: stmt.all(query.parameters) };
  const { changes, lastInsertRowid } = stmt.run(query.parameters);
  return {
    numAffectedRows: BigInt(changes),
    insertId: BigInt(lastInsertRowid),
    rows: [],
  };
}

/**
 * The group's transaction: every write in its own savepoint, one commit. Fills `out` per write. `relaxed`:
 * commit it with synchronous=NORMAL (every write of the group may skip the fsync).
 */
function runGroup(
  database: SqliteDatabase,
  group: Queued[],
  out: { ok: boolean; v: unknown }[],
  relaxed: boolean,
): void {
  const exec = (sql: string): void => {
    database.prepare(sql).run([]);
  };
  // The safety level cannot change inside a transaction: set around it.
  if (relaxed) exec("pragma synchronous = NORMAL");
  try {
    inTransaction(database, group, out, exec);
  } finally {
    if (relaxed) exec("pragma synchronous = FULL");
  }
}

function inTransaction(
  database: SqliteDatabase,
  group: Queued[],
  out: { ok: boolean; v: unknown }[],
  exec: (sql: string) => void,
): void {
  // IMMEDIATE takes the write lock now (waiting up to busy_timeout for another process's writer).
  exec("begin immediate");
  try {
    for (const q of group) {
      exec("savepoint lasertrade_group_write");
      try {
        out.push({ ok: true, v: runOne(database, q.query) });
        exec("release lasertrade_group_write");
      } catch (e) {
        out.push({ ok: false, v: e });
        exec("rollback to lasertrade_group_write");
        exec("release lasertrade_group_write");
      }
    }
    exec("commit");
  } catch (e) {
    try {
      exec("rollback");
    } catch {
      // Already rolled back by SQLite itself (some I/O errors end the transaction).
    }
    throw e;
  }
}

/**
 * A runner that commits the queries queued within one event-loop turn together (see the file comment).
 * `db` is the Kysely instance over `database` (its connection lock is taken for the group); `database` the
 * same better-sqlite3 file with its statement cache (whose own `relaxed` rule applies to a write run alone).
 * `relaxed` names the writes that need no fsync: a group made of them only commits without one; any other
 * write in the group makes the whole group's commit synced.
 */
export function sqliteGroupCommit(
  db: Kysely<Database>,
  database: SqliteDatabase,
  relaxed: (sql: string) => boolean = () => false,
): QueryRunner {
  let queue: Queued[] = [];
  const flush = async (): Promise<void> => {
    const group = queue;
    queue = [];
    const out: { ok: boolean; v: unknown }[] = [];
    try {
      await db.connection().execute(async () => {
        // Alone: its own (synced) autocommit, without the savepoint statements.
        if (group.length === 1) out.push({ ok: true, v: runOne(database, group[0]!.query) });
        else
          runGroup(
            database,
            group,
            out,
            group.every((q) => relaxed(q.query.sql)),
          );
      });
    } catch (e) {
      for (const q of group) q.reject(e);
      return;
    }
    group.forEach((q, i) => {
      const r = out[i]!;
      if (r.ok) q.resolve(r.v as QueryResult<unknown>);
      else q.reject(r.v);
    });
  };
  return <R>(query: CompiledQuery) =>
    new Promise<QueryResult<R>>((resolve, reject) => {
      // setImmediate: after the I/O callbacks of this turn (and their promise continuations) have queued theirs.
      if (queue.length === 0) setImmediate(() => void flush());
      queue.push({ query, resolve: resolve as Queued["resolve"], reject });
    });
}
