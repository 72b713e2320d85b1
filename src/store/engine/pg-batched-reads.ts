/**
 * The request path's point reads on PostgreSQL, batched (issue 18): every trade looks up its API key and its
 * wallet, each a round trip of its own, and a round trip costs the service more CPU than the read itself (the
 * socket write that wakes the backend, the answer's parsing, the pool; `writev` alone was the service's
 * largest symbol on PostgreSQL) and the server a statement's fixed cost. Here the reads of one statement that
 * arrive within one event-loop turn, or while that statement's previous batch runs, go to the server as one
 * statement: the original query run once per argument tuple by a lateral join over the arguments' arrays
 * (`unnest … with ordinality`), each caller answered with its own rows. Like every batch here, a read waits
 * for the end of its event-loop turn (`setImmediate`) before it is sent, so that the turn's others can join it.
 *
 * Nothing is cached: every read still runs after its request arrived and sees every commit made before it ran,
 * so a revoked key or a deleted wallet (in any process) is refused exactly as before. A read alone (no
 * concurrency) runs as before, as a named statement of its own text. A batch that fails runs its reads alone,
 * all at once, so a failing read fails only its own caller.
 */
import type { CompiledQuery, QueryResult } from "kysely";
import type pg from "pg";
import { keyedBatcher } from "../executions/pg-group-commit.js";
import { pgPrepared, pgPreparedRunner } from "./pg-prepared.js";
import type { QueryRunner } from "./query-runner.js";

/** The column that numbers a batch's argument tuples (removed from the rows handed back). */
const INDEX = "lasertrade_batch_index";

/**
 * Whether `sql` may run batched: a plain select without string literals (its `$n` are parameters only), row
 * order (the join keeps no order across tuples), an offset (one is appended) or locks.
 */
function batchableText(sql: string): boolean {
  return (
    sql.startsWith("select ") &&
    !sql.includes("'") &&
    !sql.includes("$$") &&
    !/ order by | offset | for (update|share|no key update|key share)\b/i.test(sql)
  );
}

/** The array type of one parameter across a batch (text or bigint), or undefined when another type appears. */
function arrayType(items: readonly CompiledQuery[], j: number): string | undefined {
  let type: string | undefined;
  for (const q of items) {
    const v = q.parameters[j];
    const t =
      typeof v === "string"
        ? "text"
        : typeof v === "number" && Number.isSafeInteger(v)
          ? "bigint"
          : undefined;
    if (t === undefined || (type !== undefined && t !== type)) return undefined;
    type = t;
  }
  return type;
}

/**
 * `sql` run once per element of its parameters' arrays (`types`, in parameter order), numbered by INDEX.
 * `offset 0` keeps the subquery from being pulled up into a join: it is planned as the query alone is (an
 * index scan by its parameters) and run once per tuple, rather than as a join whose plan, made on a small
 * table and kept by the prepared statement, could read the whole table (seen with `executions`, pg2).
 */
export function batchedSelectSql(sql: string, types: readonly string[]): string {
  const args = types.map((_, j) => `a${j + 1}`);
  const inner = sql.replace(/\$(\d+)\b/g, (_, n: string) => `p.a${n}`);
  return (
    `select q.*, p.i::integer as ${INDEX} ` +
    `from unnest(${types.map((t, j) => `$${j + 1}::${t}[]`).join(", ")}) with ordinality as p(${args.join(", ")}, i) ` +
    `cross join lateral (${inner} offset 0) as q`
  );
}

/**
 * A QueryRunner over a pg pool: every query as a named statement (pg-prepared.ts); concurrent calls of one
 * select whose parameters are strings or integers share a round trip (see the file comment).
 */
export function pgBatchedReads(pool: Pick<pg.Pool, "query">, prefix = "lasertrade_q"): QueryRunner {
  const alone = pgPreparedRunner(pool, prefix);
  const prepared = pgPrepared(pool, `${prefix}b`);
  const texts = new Map<string, string>();
  const batched = keyedBatcher<CompiledQuery, QueryResult<unknown>>({
    groupOf: (q) => q.sql,
    one: (q) => alone(q),
    inOrder: false,
    async many(items) {
      const first = items[0]!;
      const types: string[] = [];
      for (let j = 0; j < first.parameters.length; j++) {
        const t = arrayType(items, j);
        // Mixed or other types: no batch statement for these; each read runs alone.
        if (t === undefined) return Promise.all(items.map(alone));
        types.push(t);
      }
      const memo = `${types.join(",")}|${first.sql}`;
      let text = texts.get(memo);
      if (text === undefined) texts.set(memo, (text = batchedSelectSql(first.sql, types)));
      const columns = types.map((_, j) => items.map((q) => q.parameters[j]));
      const r = await prepared(text, columns);
      const rows: unknown[][] = items.map(() => []);
      for (const row of r.rows as Record<string, unknown>[]) {
        const i = row[INDEX] as number;
        // The last property added: V8 drops it without leaving the row's fast shape.
        delete row[INDEX];
        rows[i - 1]!.push(row);
      }
      return rows.map((rs) => ({ rows: rs }));
    },
  });
  // Per text, once: whether its calls may share a statement (a select of no parameters has nothing to batch).
  const batchable = new Map<string, boolean>();
  return <R>(q: CompiledQuery) => {
    let b = batchable.get(q.sql);
    if (b === undefined) batchable.set(q.sql, (b = q.parameters.length > 0 && batchableText(q.sql)));
    return (b ? batched(q) : alone(q)) as Promise<QueryResult<R>>;
  };
}
