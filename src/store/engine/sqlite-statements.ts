/**
 * better-sqlite3 as Kysely's SQLite driver sees it, made cheaper per request:
 * - prepared statements are kept: Kysely's driver calls `prepare` for every query, and compiling the same SQL
 *   again costs more than running it for the small reads and writes of a request. They are cached by SQL
 *   text (bounded); better-sqlite3 runs synchronously, so a statement is never used by two queries at once
 *   (no code path here streams with `iterate`).
 * - with `synchronous=FULL`, the statements `relaxed` picks commit without waiting for the disk: the pending
 *   record of an execution (its insert) is synced before anything is sent, which is the promise; its outcome
 *   (the update after the send) need not be, since a record left pending is what reconciliation settles;
 *   nor the activity row written before the answer leaves (visible to every reader at once; only an OS crash
 *   before the next synced commit could lose it, while the synced execution record keeps key and request).
 *   In WAL mode the next synced commit syncs every earlier frame with it, so order is kept.
 */
import type { SqliteDatabase } from "kysely";

type Statement = ReturnType<SqliteDatabase["prepare"]>;

/** Options of `withCachedStatements`. */
export interface CachedStatementOptions {
  /** Statements kept (default 512). */
  capacity?: number;
  /** Statements that commit with synchronous=NORMAL on a FULL database (default: none). */
  relaxed?: (sql: string) => boolean;
}

/**
 * The outcome writes of executions (updates after the send; the insert stays synced). A delink's soft delete
 * also updates executions, but inside a transaction, where the safety level cannot change: not one of them.
 */
export function isExecutionOutcomeWrite(sql: string): boolean {
  return (
    sql.startsWith('update "executions" set') && !sql.startsWith('update "executions" set "delinked_at"')
  );
}

/**
 * The writes that commit without their own fsync on a FULL database: the outcome writes, and the activity row
 * (written after the send, before the answer leaves; the next synced commit syncs it with it, in WAL order), and
 * an outside wallet's build (lost to an OS crash, its send is refused and the wallet builds again).
 */
export function isRelaxedGroupWrite(sql: string): boolean {
  return (
    isExecutionOutcomeWrite(sql) ||
    sql.startsWith('insert into "activity_log"') ||
    sql.startsWith('insert into "outside_builds"')
  );
}

/** better-sqlite3's Database as far as this wrapper uses it. */
export type SqliteConnection = SqliteDatabase & { readonly inTransaction?: boolean };

/** `db` with `prepare` answered from a cache of statements. */
export function withCachedStatements(
  db: SqliteConnection,
  options: CachedStatementOptions = {},
): SqliteConnection {
  const capacity = options.capacity ?? 512;
  const statements = new Map<string, Statement>();
  // Prepared here, outside any transaction: SQLite refuses even to prepare a safety-level pragma inside one,
  // and the first relaxed statement may well be prepared inside a group commit's transaction.
  const p =
    options.relaxed === undefined
      ? undefined
      : {
          normal: db.prepare("pragma synchronous = NORMAL"),
          full: db.prepare("pragma synchronous = FULL"),
        };

  // Runs one statement between two pragma switches; nothing can interleave (better-sqlite3 is synchronous).
  function relax(stmt: Statement, p: { normal: Statement; full: Statement }): Statement {
    const around = <T>(f: () => T): T => {
      // The safety level cannot change inside a transaction; there the statement commits with it.
      if (db.inTransaction === true) return f();
      p.normal.run([]);
      try {
        return f();
      } finally {
        p.full.run([]);
      }
    };
    return {
      get reader() {
        return stmt.reader;
      },
      all: (params) => around(() => stmt.all(params)),
      run: (params) => around(() => stmt.run(params)),
      iterate: (params) => stmt.iterate(params),
    };
  }

  return {
    // Whether a transaction is open on the connection: the fire's claim commit runs at once only without one.
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql) {
      let stmt = statements.get(sql);
      if (stmt === undefined) {
        stmt = db.prepare(sql);
        if (p !== undefined && options.relaxed?.(sql) === true) stmt = relax(stmt, p);
        // Dropping the oldest is enough: the set of distinct statements of a running service is small.
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
        statements.set(sql, stmt);
      }
      return stmt;
    },
  };
}
