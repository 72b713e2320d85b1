/**
 * The statements of an order's fire commit (claimOrderRecording: the claim, its `order.triggered` event, the
 * pending execution) compiled once (engine/compiled-once.ts). Built and compiled through Kysely on every fire
 * they cost more CPU than the commit itself on SQLite (about 0.25 of its 0.55 ms in the fire-stages bench), and
 * the commit is on the trigger's critical path: nothing is sent before it. On PostgreSQL they run on the
 * commit's Kysely transaction; on SQLite synchronously on the connection itself (`sqliteClaim`), begin to
 * commit in one call. The SQL writes what the general path (applyTransition, insertExecution) writes for a claim,
 * the event through the same order-event statements (test/store/orders.test.ts compares the two).
 */
import type { CompiledQuery, Kysely, SqliteDatabase, Selectable, Transaction } from "kysely";
import { compiledQuery } from "../engine/compiled-once.js";
import { runClaimProgram, type ClaimProgram } from "../engine/claim-program.js";
import { orderEventStatements } from "./order-event-statements.js";
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
  const events = orderEventStatements(db, dialect);
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
    yield* events.program(order, `order.${t.to}`);
    const [execution] = yield insertExecution(executionValues(e, e.createdAt ?? now));
    return { order, execution: execution as Selectable<ExecutionsTable> };
  }

  return {
    events,
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
    /** The pending execution's insert inside `trx`; its row. */
    async insertExecution(trx: Transaction<Database>, e: NewExecution, now: string) {
      const [row] = await rowsIn(trx, insertExecution(executionValues(e, now)));
      return row as Selectable<ExecutionsTable>;
    },
    /**
     * SQLite only (undefined elsewhere): the same statements run synchronously on the connection, in one
     * `begin immediate … commit` when the connection is free (engine/claim-program.ts). `toOrder` makes the
     * claimed row the order the event describes. Undefined when the claim lost (a commit that wrote nothing).
     */
    sqliteClaim:
      sqlite === undefined
        ? undefined
        : (
            t: OrderTransition,
            e: NewExecution,
            now: string,
            toOrder: (row: Selectable<OrdersTable>) => OrderRecord,
          ): Promise<{ order: OrderRecord; execution: Selectable<ExecutionsTable> } | undefined> =>
            runClaimProgram(db, sqlite, () => recordClaim(t, e, now, toOrder)),
  };
}
