/**
 * The statements of an order's fire commit (claimOrderRecording: the claim, its `order.triggered` event, the
 * pending execution) compiled once (engine/compiled-once.ts). Built and compiled through Kysely on every fire
 * they cost more CPU than the commit itself on SQLite (about 0.25 of its 0.55 ms in the fire-stages bench), and
 * the commit is on the trigger's critical path: nothing is sent before it. On PostgreSQL they run on the
 * commit's Kysely transaction; on SQLite on the connection itself, inside the transaction kysely-orders opens
 * there. The SQL writes what the general path (applyTransition, appendEvent, insertExecution) writes for a
 * claim (test/store/orders.test.ts compares the two).
 */
import {
  sql,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type QueryResult,
  type RawBuilder,
  type SqliteDatabase,
  type Selectable,
  type Transaction,
} from "kysely";
import { compiledOnce } from "../engine/compiled-once.js";
import type { QueryRunner } from "../engine/query-runner.js";
import { EVENTS_CHANNEL, EVENTS_NOTIFY_SETTING } from "../events/migrations-events.js";
import { executionValues, INSERT_COLUMNS, type ExecutionValues } from "../executions/execution-statements.js";
import type { Database, ExecutionsTable, OrdersTable } from "../schema.js";
import type { NewExecution } from "../types.js";
import type { OrderRecord, OrderTransition } from "./order-types.js";

/** One statement on better-sqlite3 itself, with the result Kysely's SQLite driver gives. */
function runOn(database: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const stmt = database.prepare(query.sql);
  if (stmt.reader) return { rows: stmt.all(query.parameters) };
  const { changes } = stmt.run(query.parameters);
  return { numAffectedRows: BigInt(changes), rows: [] };
}

/**
 * The claim's statements over `db` (compiled once), each run on the transaction it is given; given none, on
 * `sqlite` (the same connection, without Kysely's executor: see kysely-orders' claimOrderRecording).
 */
export function claimStatements(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  sqlite?: SqliteDatabase,
) {
  const raw = <T>(r: RawBuilder<T>): Compilable<T> => ({ compile: () => r.compile(db) });
  const direct: QueryRunner | undefined =
    sqlite === undefined
      ? undefined
      : <R>(q: CompiledQuery) => Promise.resolve(runOn(sqlite, q) as QueryResult<R>);
  const claim = compiledOnce(
    db,
    ["to", "now", "owner", "leaseUntilMs", "triggeredBy", "id", "from", "version"],
    (a: {
      to: string;
      now: string;
      owner: string;
      leaseUntilMs: number;
      triggeredBy: string;
      id: string;
      from: string;
      version: number;
    }) =>
      db
        .updateTable("orders")
        .set((eb) => ({
          state: a.to,
          version: eb("version", "+", 1),
          updated_at: a.now,
          attempt: eb("attempt", "+", 1),
          lease_owner: a.owner,
          lease_until_ms: a.leaseUntilMs,
          triggered_by: a.triggeredBy,
        }))
        .where("id", "=", a.id)
        .where("state", "=", a.from)
        .where("version", "=", a.version)
        .returningAll(),
    direct,
  );
  const nextEventId =
    dialect === "postgres"
      ? compiledOnce(
          db,
          ["accountId"],
          (a: { accountId: number }) =>
            raw(sql<{ last_id: string }>`insert into event_sequences (api_key_id, last_id)
      values (${a.accountId}, 1)
      on conflict (api_key_id) do update set last_id = event_sequences.last_id + 1 returning last_id`),
          direct,
        )
      : compiledOnce(
          db,
          ["accountId"],
          // One statement where appendEvent takes three: the same row, the same number.
          (a: { accountId: number }) =>
            raw(sql<{ last_id: number }>`insert into event_sequences (api_key_id, last_id)
      values (${a.accountId}, 1)
      on conflict (api_key_id) do update set last_id = last_id + 1 returning last_id`),
          direct,
        );
  const insertEvent = compiledOnce(
    db,
    ["api_key_id", "id", "type", "execution_id", "wallet", "wallets", "status", "error", "created_at"],
    (a: {
      api_key_id: number;
      id: number;
      type: string;
      execution_id: string;
      wallet: string;
      wallets: string;
      status: string;
      error: string | null;
      created_at: string;
    }) => db.insertInto("events").values({ ...a, kind: "order", signatures: "[]" }),
    direct,
  );
  const notify = compiledOnce(db, ["accountId"], (a: { accountId: string }) =>
    raw(sql`select case when current_setting(${EVENTS_NOTIFY_SETTING}, true)
      is distinct from 'off' then pg_notify(${EVENTS_CHANNEL}, current_schema() || ':' || ${a.accountId}) end`),
  );
  const insertExecution = compiledOnce(
    db,
    INSERT_COLUMNS,
    (a: ExecutionValues) =>
      db
        .insertInto("executions")
        .values(a as never)
        .returningAll(),
    direct,
  );
  return {
    /** Runs `sql` (begin, commit, rollback) on the SQLite connection; undefined on PostgreSQL. */
    exec:
      sqlite === undefined
        ? undefined
        : (text: string): void => {
            sqlite.prepare(text).run([]);
          },
    /** Whether `t` is a claim these statements write (else the general applyTransition does). */
    fits: (t: OrderTransition): boolean =>
      t.claim !== undefined &&
      t.triggeredBy !== undefined &&
      t.version !== undefined &&
      t.owner === undefined &&
      t.error === undefined &&
      t.executionId === undefined,
    /** The claim's conditional update inside `trx`: the row after, or undefined when it matched nothing. */
    async claim(trx: Transaction<Database> | undefined, t: OrderTransition, now: string) {
      const rows = await claim(
        {
          to: t.to,
          now,
          owner: t.claim!.owner,
          leaseUntilMs: t.claim!.leaseUntilMs,
          triggeredBy: t.triggeredBy!,
          id: t.id,
          from: t.from,
          version: t.version!,
        },
        trx,
      );
      return rows[0] as Selectable<OrdersTable> | undefined;
    },
    /** The order's `order.<state>` event inside `trx` (as appendEvent writes it). */
    async event(trx: Transaction<Database> | undefined, o: OrderRecord, type: string) {
      const [seq] = await nextEventId({ accountId: o.accountId }, trx);
      await insertEvent(
        {
          api_key_id: o.accountId,
          id: Number(seq!.last_id),
          type,
          execution_id: o.id,
          wallet: o.wallet,
          wallets: JSON.stringify([o.wallet]),
          status: o.state,
          error: o.error === null ? null : JSON.stringify(o.error),
          created_at: o.updatedAt,
        },
        trx,
      );
      if (dialect === "postgres") await notify({ accountId: String(o.accountId) }, trx);
    },
    /** The pending execution's insert inside `trx`; its row. */
    async insertExecution(trx: Transaction<Database> | undefined, e: NewExecution, now: string) {
      const [row] = await insertExecution(executionValues(e, now), trx);
      return row as Selectable<ExecutionsTable>;
    },
  };
}
