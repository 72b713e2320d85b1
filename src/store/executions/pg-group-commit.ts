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
  /**
   * Batches of one group in flight at once (default 1: a group's writes commit in arrival order). More only for
   * rows with no order to keep and no shared lock (outside builds): a lone lane would cap them at one commit.
   */
  lanesOf?: (group: number | string) => number;
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
  // A group is here exactly while a batch of it runs or is scheduled: arrivals wait for the next one.
  const lanes = new Map<number | string, { queue: Waiting<T, R>[]; busy: number; width: number }>();

  const drain = (group: number | string): void => {
    const lane = lanes.get(group)!; // present while any of its batches is scheduled or runs
    const batch = lane.queue.splice(0, maxBatch);
    void runBatch(batch, o).finally(() => {
      lane.busy -= 1;
      // The writes that arrived meanwhile form the next batch: let this turn's others join it first.
      if (lane.queue.length > 0) schedule(group, lane);
      else if (lane.busy === 0) lanes.delete(group);
    });
  };
  const schedule = (group: number | string, lane: { busy: number }): void => {
    lane.busy += 1;
    // setImmediate: after the I/O callbacks of this turn (and their promise continuations) have queued theirs.
    setImmediate(() => drain(group));
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      const group = o.groupOf(item);
      let lane = lanes.get(group);
      if (lane === undefined) {
        lane = { queue: [], busy: 0, width: o.lanesOf?.(group) ?? 1 };
        lanes.set(group, lane);
      }
      lane.queue.push({ item, resolve, reject });
      // A lane free: a batch starts next turn (joined by this turn's other writes); else the write waits.
      if (lane.busy < lane.width && lane.queue.length === 1) schedule(group, lane);
    });
}

// A single-row insert without `returning` (Kysely's compiled form): `insert into "t" (…) values ($1, …, $n)`,
// optionally with an `on conflict …` clause after it (the outside builds' upsert), which a multi-row insert keeps.
const SINGLE_ROW_INSERT =
  /^(insert into "\w+" \([^)]*\) values )\((\$\d+(?:, \$\d+)*)\)((?: on conflict [^$]*)?)$/;

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
 * issue 18), and the outside build of every build (issue 32: an upsert, its `on conflict` clause kept). Rows of the same statement queued within one event-loop turn, or while that statement's previous
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
    // Outside builds have no order to keep (a repeat of one message is the same build): up to eight batches at once.
    lanesOf: (sql) => (String(sql).startsWith('insert into "outside_builds"') ? 8 : 1),
    one: (q) => one(q),
    async many(items) {
      const m = SINGLE_ROW_INSERT.exec(items[0]!.sql)!;
      const width = items[0]!.parameters.length;
      // Two rows of one batch on the same conflict key make PostgreSQL refuse the whole statement ("cannot
      // affect row a second time"): the batch then runs its rows one at a time, in order, as any failed batch.
      await pool.query(
        multiRowInsert(m[1]!, width, items.length) + m[3]!,
        items.flatMap((q) => q.parameters),
      );
      return items.map(() => ({ rows: [], numAffectedRows: 1n }));
    },
  });
  return <R>(query: CompiledQuery) =>
    (SINGLE_ROW_INSERT.test(query.sql) ? batched(query) : one(query)) as Promise<QueryResult<R>>;
}
