/**
 * The statements of an order's fire commit (claimOrderRecording: the claim, its `order.triggered` event, the
 * pending execution) compiled once (engine/compiled-once.ts). Built and compiled through Kysely on every fire
 * they cost more CPU than the commit itself on SQLite (about 0.25 of its 0.55 ms in the fire-stages bench), and
 * the commit is on the trigger's critical path: nothing is sent before it. On PostgreSQL they run on the
 * commit's Kysely transaction; on SQLite synchronously on the connection itself (`sqliteClaim`), begin to
 * commit in one call. The SQL writes what the general path (applyTransition, appendEvent, insertExecution) writes for a
 * claim (test/store/orders.test.ts compares the two).
 */
import {
  sql,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type RawBuilder,
  type SqliteDatabase,
  type Selectable,
  type Transaction,
} from "kysely";
import { compiledQuery } from "../engine/compiled-once.js";
import { runInTransaction, runOnSqlite, type ClaimProgram } from "../engine/claim-program.js";
import { EVENTS_CHANNEL, EVENTS_NOTIFY_SETTING } from "../events/migrations-events.js";
import { executionValues, INSERT_COLUMNS, type ExecutionValues } from "../executions/execution-statements.js";
import type { Database, ExecutionsTable, OrdersTable } from "../schema.js";
import type { NewExecution } from "../types.js";
import type { OrderRecord, OrderTransition } from "./order-types.js";
import { liveKeysParams, liveKeysPredicate } from "./live-keys.js";

/** A claim's order row after the update, or undefined when it matched nothing (lost). */
type ClaimedRow = Selectable<OrdersTable> | undefined;

/** The claim's statements over `db`, compiled once; `sqliteClaim` is given `sqlite` (the connection under `db`). */
export function claimStatements(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  sqlite?: SqliteDatabase,
) {
  const raw = <T>(r: RawBuilder<T>): Compilable<T> => ({ compile: () => r.compile(db) });
  const claim = compiledQuery(
    [
      "to",
      "now",
      "owner",
      "leaseUntilMs",
      "triggeredBy",
      "id",
      "from",
      "version",
      "liveKey",
      "liveRoot",
      "liveChain",
    ],
    (a: {
      to: string;
      now: string;
      owner: string;
      leaseUntilMs: number;
      triggeredBy: string;
      id: string;
      from: string;
      version: number;
      liveKey: number;
      liveRoot: number;
      liveChain: string;
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
        .where(liveKeysPredicate(dialect, a))
        .returningAll(),
  );
  const nextEventId =
    dialect === "postgres"
      ? compiledQuery(["accountId"], (a: { accountId: number }) =>
          raw(sql<{ last_id: string | number }>`insert into event_sequences (api_key_id, last_id)
      values (${a.accountId}, 1)
      on conflict (api_key_id) do update set last_id = event_sequences.last_id + 1 returning last_id`),
        )
      : compiledQuery(
          ["accountId"],
          // One statement where appendEvent takes three: the same row, the same number.
          (a: { accountId: number }) =>
            raw(sql<{ last_id: string | number }>`insert into event_sequences (api_key_id, last_id)
      values (${a.accountId}, 1)
      on conflict (api_key_id) do update set last_id = last_id + 1 returning last_id`),
        );
  const insertEvent = compiledQuery(
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
  );
  const notify = compiledQuery(["accountId"], (a: { accountId: string }) =>
    raw(sql`select case when current_setting(${EVENTS_NOTIFY_SETTING}, true)
      is distinct from 'off' then pg_notify(${EVENTS_CHANNEL}, current_schema() || ':' || ${a.accountId}) end`),
  );
  const insertExecution = compiledQuery(INSERT_COLUMNS, (a: ExecutionValues) =>
    db
      .insertInto("executions")
      .values(a as never)
      .returningAll(),
  );

  const claimQuery = (t: OrderTransition, now: string) =>
    claim({
      to: t.to,
      now,
      owner: t.claim!.owner,
      leaseUntilMs: t.claim!.leaseUntilMs,
      triggeredBy: t.triggeredBy!,
      id: t.id,
      from: t.from,
      version: t.version!,
      ...liveKeysParams(t.claim!.liveKeys),
    });
  const eventQuery = (o: OrderRecord, type: string, id: string | number) =>
    insertEvent({
      api_key_id: o.accountId,
      id: Number(id),
      type,
      execution_id: o.id,
      wallet: o.wallet,
      wallets: JSON.stringify([o.wallet]),
      status: o.state,
      error: o.error === null ? null : JSON.stringify(o.error),
      created_at: o.updatedAt,
    });
  const rowsIn = async <R>(trx: Transaction<Database>, q: CompiledQuery<R>): Promise<R[]> =>
    (await trx.executeQuery(q)).rows;
  /** A claim, its event and the pending execution (a claim that matched nothing writes neither: undefined). */
  function* recordClaim(
    t: OrderTransition,
    e: NewExecution,
    now: string,
    toOrder: (row: Selectable<OrdersTable>) => OrderRecord,
  ): ClaimProgram<{ order: OrderRecord; execution: Selectable<ExecutionsTable> } | undefined> {
    const [row] = (yield claimQuery(t, now)) as ClaimedRow[];
    if (row === undefined) return undefined;
    const order = toOrder(row);
    yield* eventProgram(order, `order.${t.to}`);
    const [execution] = yield insertExecution(executionValues(e, e.createdAt ?? now));
    return { order, execution: execution as Selectable<ExecutionsTable> };
  }
  /** The order's `order.<state>` event (as appendEvent writes it), as statements of a claim program. */
  function* eventProgram(o: OrderRecord, type: string): ClaimProgram<void> {
    const [seq] = (yield nextEventId({ accountId: o.accountId })) as { last_id: string | number }[];
    yield eventQuery(o, type, seq!.last_id);
    if (dialect === "postgres") yield notify({ accountId: String(o.accountId) });
  }

  return {
    eventProgram,
    /** Whether `t` is a claim these statements write (else the general applyTransition does). */
    fits: (t: OrderTransition): boolean =>
      t.claim !== undefined &&
      t.triggeredBy !== undefined &&
      t.version !== undefined &&
      t.owner === undefined &&
      t.error === undefined &&
      t.executionId === undefined,
    /** The claim's conditional update inside `trx`: the row after, or undefined when it matched nothing. */
    async claim(trx: Transaction<Database>, t: OrderTransition, now: string): Promise<ClaimedRow> {
      return (await rowsIn(trx, claimQuery(t, now)))[0] as ClaimedRow;
    },
    /** The order's `order.<state>` event inside `trx` (as appendEvent writes it). */
    event: (trx: Transaction<Database>, o: OrderRecord, type: string): Promise<void> =>
      runInTransaction(trx, eventProgram(o, type)),
    /** The pending execution's insert inside `trx`; its row. */
    async insertExecution(trx: Transaction<Database>, e: NewExecution, now: string) {
      const [row] = await rowsIn(trx, insertExecution(executionValues(e, now)));
      return row as Selectable<ExecutionsTable>;
    },
    /**
     * SQLite only (undefined elsewhere): the same statements run synchronously on the connection, in one
     * `begin immediate … commit` (nothing can interleave: better-sqlite3 runs on this thread until it returns).
     * `toOrder` makes the claimed row the order the event describes. Undefined when the claim lost (rolled back).
     */
    sqliteClaim:
      sqlite === undefined
        ? undefined
        : (
            t: OrderTransition,
            e: NewExecution,
            now: string,
            toOrder: (row: Selectable<OrdersTable>) => OrderRecord,
          ): { order: OrderRecord; execution: Selectable<ExecutionsTable> } | undefined =>
            // A lost claim commits a transaction that wrote nothing.
            runOnSqlite(sqlite, recordClaim(t, e, now, toOrder)),
  };
}
