/**
 * better-sqlite3 with its prepared statements kept: Kysely's SQLite driver calls `prepare` for every query,
 * and compiling the same SQL again costs more than running it for the small reads and writes of a request.
 * Statements are cached by SQL text (bounded); better-sqlite3 runs synchronously, so a statement is never
 * used by two queries at once (no code path here streams with `iterate`).
 */
import type { SqliteDatabase } from "kysely";

/** The parts of a better-sqlite3 Database this wrapper uses. */
type PreparingDatabase = SqliteDatabase;

/** `db` with `prepare` answered from a cache of at most `capacity` statements. */
export function withCachedStatements(db: PreparingDatabase, capacity = 512): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase["prepare"]>>();
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql) {
      let stmt = statements.get(sql);
      if (stmt === undefined) {
        stmt = db.prepare(sql);
        // Dropping the oldest is enough: the set of distinct statements of a running service is small.
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
        statements.set(sql, stmt);
      }
      return stmt;
    },
  };
}
