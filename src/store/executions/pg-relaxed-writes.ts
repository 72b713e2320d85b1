/**
 * PostgreSQL's counterpart of SQLite's relaxed outcome updates (sqlite-statements.ts): the update that records
 * an execution's outcome after the send commits without waiting for the WAL flush (`synchronous_commit = off`
 * on the connections of a small pool of its own). The pending insert before the send stays synced: that
 * record is the promise; an outcome lost to a server crash leaves the record pending, which reconciliation
 * settles. The commit is visible to every session at once; only its flush to disk is deferred (at most
 * `wal_writer_delay` × 3), and a later synced commit flushes it first (the WAL is written in order).
 *
 * Why it matters (issue 18): every execution write fires the events trigger, whose upsert of the key's
 * `event_sequences` row holds that row's lock until commit, so one key's writes run one at a time, each
 * holding the lock through its flush. Measured with 64 lanes on one key, most of the busy backends' time was
 * `Lock/transactionid` waits behind it; an unsynced outcome commit halves the flushes under that lock.
 */
import pg from "pg";
import { pgSessionOptions } from "../engine/pg-session-options.js";

/** Options of `relaxedPgPool`. */
export interface RelaxedPoolOptions {
  connectionString: string;
  /** Connections (the main pool's size is a fair default: every request makes one outcome update). */
  max: number;
  /** `search_path` schema, as the main pool's. */
  schema?: string;
  /** false: the events trigger sends no NOTIFY on these connections (Redis carries the wake-ups). Default true. */
  notify?: boolean;
}

/** A pool whose sessions commit without waiting for the WAL flush; for the outcome updates only. */
export function relaxedPgPool(options: RelaxedPoolOptions): pg.Pool {
  // The pool runs the outcome updates only, and they reach their rows by primary key. A batch's update joins
  // its parameter arrays to the table (pg-execution-writer.ts); planned while the table is small (a new
  // deployment, the bench), that join is a hash join over a sequential scan of the whole table, and the
  // connection's prepared statement keeps that plan as the table grows (measured: every batch read all
  // executions, 18 % of the server's CPU per trade deforming their rows). Discouraging sequential scans and
  // hash/merge joins here leaves the plan that fits every size: a nested loop over the primary key.
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    options: pgSessionOptions({
      ...options,
      extra: ["synchronous_commit=off", "enable_seqscan=off", "enable_hashjoin=off", "enable_mergejoin=off"],
    }),
  });
  // As the main pool's: an idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
  return pool;
}
