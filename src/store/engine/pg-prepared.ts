/**
 * The request path's fixed reads and writes on PostgreSQL as named prepared statements (issue 18). Kysely's
 * driver sends every query unnamed, so the server parses, analyses and plans it again on every call: for the
 * key and wallet lookups of every trade, the activity row and the webhook worker's listing, that was most of
 * the database's CPU per trade after group commit (parse and plan functions led a `perf` profile of the
 * backends). pg prepares a named statement once per connection and afterwards sends only its parameters.
 *
 * Only for SQL whose text is fixed (compiledOnce's queries, the batched inserts of a given row count): each
 * distinct text gets a name once, so the names stay few. A prepared `select *` or `returning *` fails with
 * "cached plan must not change result type" once a migration run by another process adds a column; such a
 * call runs again unnamed and the text gets a fresh name, which each connection prepares anew.
 */
import type { CompiledQuery, QueryResult } from "kysely";
import type pg from "pg";
import type { QueryRunner } from "./query-runner.js";

/** SQLSTATE of "cached plan must not change result type" (feature_not_supported). */
const PLAN_CHANGED = "0A000";

/**
 * Runs `text` as a named statement (named once per distinct text: `name` when given, else a numbered one; a
 * fresh numbered one after the table changed under it); the result as Kysely's driver gives it.
 */
type PreparedQuery = (text: string, values: readonly unknown[], name?: string) => Promise<pg.QueryResult>;

/** Named statements over `pool`; `prefix` keeps this runner's names apart from others on the same connections. */
export function pgPrepared(pool: Pick<pg.Pool, "query">, prefix: string): PreparedQuery {
  const names = new Map<string, string>();
  let made = 0;
  const nameOf = (text: string, fresh = false, first?: string): string => {
    let name = names.get(text);
    if (name === undefined || fresh) {
      made += 1;
      name = !fresh && first !== undefined ? first : `${prefix}_${made}`;
      names.set(text, name);
    }
    return name;
  };
  return async (text, values, first) => {
    try {
      return await pool.query({ name: nameOf(text, false, first), text, values: [...values] });
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      if (err.code !== PLAN_CHANGED || !String(err.message).includes("cached plan")) throw e;
      // The table changed under the prepared statement: this call unnamed, the next ones under a new name.
      nameOf(text, true);
      return pool.query(text, [...values]);
    }
  };
}

/** Kysely's result of a pg result (the driver's rule: affected rows for the writes only). */
function toQueryResult<R>(r: pg.QueryResult): QueryResult<R> {
  const write = r.command === "INSERT" || r.command === "UPDATE" || r.command === "DELETE";
  return {
    rows: r.rows as R[],
    ...(write ? { numAffectedRows: BigInt(r.rowCount ?? 0) } : {}),
  };
}

/** A QueryRunner (for compiledOnce) running each compiled query as a named statement. */
export function pgPreparedRunner(pool: Pick<pg.Pool, "query">, prefix = "lasertrade_q"): QueryRunner {
  const prepared = pgPrepared(pool, prefix);
  return async <R>(q: CompiledQuery) => toQueryResult<R>(await prepared(q.sql, q.parameters));
}
