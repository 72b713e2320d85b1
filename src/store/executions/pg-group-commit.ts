/**
 * Group commit of the request path's execution writes on PostgreSQL (issue 18), the counterpart of SQLite's
 * (sqlite-group-commit.ts). Every execution write fires the events trigger, whose upsert of the key's
 * `event_sequences` row holds that row's lock until commit: one key's writes run one at a time, each holding
 * the lock through its own WAL flush, and the pool's connections sit in `Lock/transactionid` waits behind it
 * (so requests also wait for a connection). Here the writes of one key that arrive while the key's previous
 * batch runs (or within the same event-loop turn) run as one batch — one statement, one transaction, one lock
 * hold and one flush — and each caller is answered after that commit, so a pending record is still on disk
 * before its send starts.
 *
 * Batches never span keys: two processes' batches would take two keys' sequence rows in whatever order their
 * rows were written and could deadlock. One batch per key runs at a time; batches of different keys run side
 * by side on their own connections. A batch that fails (one row's constraint, a trigger) left nothing behind
 * (one statement is atomic), and its writes run again one at a time, so a failing write fails only its own
 * caller.
 */
import type { CompiledQuery, QueryResult } from "kysely";
import type pg from "pg";
import { pgPreparedRunner } from "../engine/pg-prepared.js";
import type { QueryRunner } from "../engine/query-runner.js";

/** Options of `keyedBatcher`. */
interface KeyedBatcherOptions<T, R> {
  /** The batch a write belongs to (the API key); writes of different groups never share a batch. */
  groupOf: (item: T) => number | string;
  /** Runs a batch of two or more as one statement; answers one result per item, in order. */
  many: (items: T[]) => Promise<R[]>;
  /** Runs one write alone (a batch of one, and each write of a failed batch). */
  one: (item: T) => Promise<R>;
  /** The largest batch (the rest waits for the next). Default 128. */
  maxBatch?: number;
  /**
   * Whether a failed batch's items run alone one after another, in arrival order (default true: writes, whose
   * events keep that order); reads, which have no order to keep, run alone all at once.
   */
  inOrder?: boolean;
}

interface Waiting<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** Runs a batch, then its items one by one if the batch failed; answers every caller. */
async function runBatch<T, R>(batch: Waiting<T, R>[], o: KeyedBatcherOptions<T, R>): Promise<void> {
  if (batch.length > 1) {
    try {
      const rows = await o.many(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(rows[i]!));
      return;
    } catch {
      // Nothing of the batch was written: each write runs alone below and meets its own error, if any.
    }
  }
  if (o.inOrder === false) {
    await Promise.all(batch.map((w) => o.one(w.item).then(w.resolve, w.reject)));
    return;
  }
  // One at a time, in arrival order (the order their events would have had in the batch).
  for (const w of batch) {
    try {
      w.resolve(await o.one(w.item));
    } catch (e) {
      w.reject(e);
    }
  }
}

/**
 * A write function that batches concurrent writes of one group (see the file comment): call it as one write,
 * it answers after the commit that holds that write.
 */
export function keyedBatcher<T, R>(o: KeyedBatcherOptions<T, R>): (item: T) => Promise<R> {
  const maxBatch = o.maxBatch ?? 128;
  // A group's queue is here exactly while a batch of it runs or is scheduled: arrivals wait for the next one.
  const lanes = new Map<number | string, Waiting<T, R>[]>();

  const drain = (group: number | string, queue: Waiting<T, R>[]): void => {
    const batch = queue.splice(0, maxBatch);
    void runBatch(batch, o).finally(() => {
      // The writes that arrived meanwhile form the next batch: let this turn's others join it first.
      if (queue.length > 0) setImmediate(() => drain(group, queue));
      else lanes.delete(group);
    });
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      const group = o.groupOf(item);
      const queue = lanes.get(group);
      if (queue !== undefined) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh = [{ item, resolve, reject }];
      lanes.set(group, fresh);
      // setImmediate: after the I/O callbacks of this turn (and their promise continuations) have queued theirs.
      setImmediate(() => drain(group, fresh));
    });
}

// A single-row insert without `returning` (Kysely's compiled form): `insert into "t" (…) values ($1, …, $n)`.
const SINGLE_ROW_INSERT = /^(insert into "\w+" \([^)]*\) values )\((\$\d+(?:, \$\d+)*)\)$/;

/** `insert … values (row 1), (row 2), …` for `count` rows of `width` parameters each. */
function multiRowInsert(prefix: string, width: number, count: number): string {
  const rows: string[] = [];
  for (let r = 0; r < count; r++) {
    rows.push(`(${Array.from({ length: width }, (_, i) => `$${r * width + i + 1}`).join(", ")})`);
  }
  return prefix + rows.join(", ");
}

/**
 * A QueryRunner over a pg pool that commits concurrent single-row inserts of one table together: the
 * activity row of every request (a synced commit of its own, holding a connection through its WAL flush,
 * issue 18). Rows of the same statement queued within one event-loop turn, or while that statement's previous
 * batch runs, go in one multi-row insert (one commit, one flush), each caller answered after it; a failed
 * batch runs its rows one at a time. Only for tables whose rows take no lock beyond their own (no trigger
 * touching shared rows): the rows of several keys share a batch. Any other query runs as it is.
 */
export function pgBatchedInserts(pool: Pick<pg.Pool, "query">): QueryRunner {
  // A write alone (fixed text) as a named statement; a batch's text depends on its row count, so it stays
  // unnamed rather than prepare up to maxBatch statements on every connection.
  const one = pgPreparedRunner(pool, "lasertrade_w");
  const batched = keyedBatcher<CompiledQuery, QueryResult<unknown>>({
    groupOf: (q) => q.sql,
    one: (q) => one(q),
    async many(items) {
      const m = SINGLE_ROW_INSERT.exec(items[0]!.sql)!;
      const width = items[0]!.parameters.length;
      await pool.query(
        multiRowInsert(m[1]!, width, items.length),
        items.flatMap((q) => q.parameters),
      );
      return items.map(() => ({ rows: [], numAffectedRows: 1n }));
    },
  });
  return <R>(query: CompiledQuery) =>
    (SINGLE_ROW_INSERT.test(query.sql) ? batched(query) : one(query)) as Promise<QueryResult<R>>;
}
