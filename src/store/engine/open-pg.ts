/**
 * Opens a PostgreSQL store's connections: the Kysely pool, the outcome updates' relaxed pool, the execution writer
 * with its group commit, and the event wake-ups (LISTEN/NOTIFY, or Redis pub/sub when a client is given).
 * `open-store.ts` imports this file only when DATABASE_URL names PostgreSQL, so a SQLite service never loads
 * `pg` (issue 18, peak RSS).
 */
import type { Redis } from "ioredis";
import { Kysely } from "kysely";
import pg from "pg";
import type { ExecutionWriter } from "../executions/execution-statements.js";
import type { StoreEventOptions } from "../kysely-store.js";
import { pgExecutionWriter } from "../executions/pg-execution-writer.js";
import { pgBatchedInserts } from "../executions/pg-group-commit.js";
import { pgSessionOptions } from "./pg-session-options.js";
import { startPgListener } from "../events/pg-listen.js";
import { pgBatchedReads } from "./pg-batched-reads.js";
import { relaxedPgPool } from "../executions/pg-relaxed-writes.js";
import { schemaScopedPostgresDialect } from "./pg-scoped-introspector.js";
import { redisWake } from "../events/redis-wake.js";
import type { Database } from "../schema.js";
import type { QueryRunner } from "./query-runner.js";

/** What `openStore` needs of an opened PostgreSQL database before migrating it. */
interface OpenedPg {
  db: Kysely<Database>;
  /** The schema unqualified tables land in: Kysely's migration tables are looked for there only. */
  migrationTableSchema: string;
  writer: ExecutionWriter;
  /** The activity rows' group commit (unset when group commit is off). */
  syncedWrites: QueryRunner | undefined;
  /** The compiled-once reads as named statements (pg-prepared.ts), concurrent ones batched (pg-batched-reads.ts). */
  prepared: QueryRunner;
  eventOptions: StoreEventOptions;
  /** The outcome updates' pool (pg-relaxed-writes.ts), closed with the store. */
  relaxed: pg.Pool;
}

/** Connects to PostgreSQL (creating `pgSchema` first when given) and builds the store's parts on it. */
export async function openPg(
  databaseUrl: string,
  options: { pgSchema?: string; pgPoolSize?: number; redis?: Redis; pgGroupCommit?: boolean },
): Promise<OpenedPg> {
  const schema = options.pgSchema;
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error("pgSchema must be a plain lower-case identifier");
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  // Every connection of the store (pool, outcome pool, listener) resolves unqualified names in `schema`.
  const inSchema = schema !== undefined ? { schema } : {};
  const searchPath = pgSessionOptions(inSchema);
  // With Redis carrying the wake-ups nobody LISTENs: the writing connections skip the trigger's NOTIFY
  // (migrations-events.ts), which would only fill the server's notify queue.
  const notify = options.redis === undefined;
  const writerOptions = pgSessionOptions({ ...inSchema, notify });
  const max = options.pgPoolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    ...(writerOptions !== "" ? { options: writerOptions } : {}),
  });
  // An idle client that loses its connection (database restart) emits 'error'; without a listener that
  // would crash the process. The pool drops the client and the next query reconnects or fails visibly.
  pool.on("error", () => {});
  // Kysely looks for its migration tables in every schema unless told which: a second deployment (or a
  // test) in another schema of the same database would make it skip creating its own and then fail.
  const migrationTableSchema = await currentSchema(pool).catch(async (err: unknown) => {
    await pool.end();
    throw err;
  });
  const db = new Kysely<Database>({ dialect: schemaScopedPostgresDialect({ pool }, migrationTableSchema) });
  const relaxed = relaxedPgPool({
    connectionString: databaseUrl,
    max,
    ...(schema !== undefined ? { schema } : {}),
    notify,
  });
  // Group commit (issue 18): concurrent pending inserts and outcome updates of one key share one statement
  // and commit (pg-group-commit.ts); so do the activity rows of concurrent requests (of every key).
  const group = options.pgGroupCommit ?? true;
  const writer = pgExecutionWriter(pool, relaxed, group);
  const syncedWrites = group ? pgBatchedInserts(pool) : undefined;
  const prepared = pgBatchedReads(pool);
  let eventOptions: StoreEventOptions;
  if (options.redis !== undefined) {
    // The namespace: this database and schema, as the NOTIFY payload's schema keeps deployments apart.
    const wake = redisWake(
      options.redis,
      `${new URL(databaseUrl).pathname.slice(1)}/${migrationTableSchema}`,
    );
    eventOptions = {
      listen: (bus, keysBus) => wake.listen(bus, keysBus),
      publish: (k) => wake.publish(k),
      publishKeys: (a) => wake.publishKeys(a),
    };
  } else {
    eventOptions = {
      listen: (bus, keysBus) =>
        startPgListener(bus, {
          keysBus,
          connectionString: databaseUrl,
          schema: migrationTableSchema,
          ...(searchPath !== "" ? { clientOptions: searchPath } : {}),
        }),
    };
  }
  return { db, migrationTableSchema, writer, syncedWrites, prepared, eventOptions, relaxed };
}

/** The schema unqualified tables land in on this pool (its search_path's first existing schema). */
async function currentSchema(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ schema: string | null }>("select current_schema() as schema");
  const schema = rows[0]?.schema;
  if (schema === null || schema === undefined)
    throw new Error("PostgreSQL search_path names no existing schema");
  return schema;
}
