/**
 * The statements of an order's fire commit (claimOrderRecording: the claim, its `order.triggered` event, the
 * pending execution) compiled once (engine/compiled-once.ts). Built and compiled through Kysely on every fire
 * they cost more CPU than the commit itself on SQLite (about 0.25 of its 0.55 ms in the fire-stages bench), and
 * the commit is on the trigger's critical path: nothing is sent before it. On SQLite they run synchronously on
 * the connection itself (`sqliteClaim`), begin to commit in one call; on PostgreSQL as one statement of
 * data-modifying CTEs (`pgClaim`), one round trip where the transaction had taken seven (begin, the claim, the
 * sequence, the event, the NOTIFY, the execution, commit): 0.51 against 1.34 ms per claim alone, median of 300.
 * A claim that also reserves a capped key's spend runs in a transaction: on PostgreSQL the keys' locks and sums
 * first, then the same one statement with the reservation rows; on SQLite `claim` and `insertExecution`.
 * The SQL writes what the general path (applyTransition, insertExecution) writes for a claim, the event through
 * the same order-event statements but in pgClaim, whose CTE writes it again (test/store/orders.test.ts compares
 * what each path writes).
 */
import { CompiledQuery, type Kysely, type SqliteDatabase, type Selectable, type Transaction } from "kysely";
import { compiledQuery } from "../engine/compiled-once.js";
import { runClaimProgram, type ClaimProgram } from "../engine/claim-program.js";
import { orderEventStatements } from "./order-event-statements.js";
import {
  executionValues,
  INSERT_COLUMNS,
  INSERT_TYPES,
  insertedRow,
  insertParams,
  quoted,
  type ExecutionValues,
} from "../executions/execution-statements.js";
import type { QueryRunner } from "../engine/query-runner.js";
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
  pg?: QueryRunner,
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
      "liveVersions",
      "liveWallet",
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
      liveVersions: string;
      liveWallet: number;
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
      ...liveKeysParams(t.claim!.live),
    });
  // pgClaim's statement, without and with reservations (the claim's text is fixed: compiled once).
  const pgTexts = new Map<boolean, string>();
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
    /**
     * PostgreSQL only (given `pg`, the store's named-statement runner; undefined elsewhere): the same claim, event
     * and execution as one statement in its own implicit transaction (pgClaimSql), one round trip instead of
     * seven. With `reserved` (the keys whose 24 h caps it was checked under, kysely-custody.ts reserveSpend), the
     * statement also writes their reservation rows, and runs in `reserved.trx`, the transaction that holds
     * those keys' locks. Undefined when the claim lost (the statement wrote nothing).
     */
    pgClaim:
      pg === undefined || dialect !== "postgres"
        ? undefined
        : async (
            t: OrderTransition,
            e: NewExecution,
            now: string,
            reserved?: {
              trx: Transaction<Database>;
              keyIds: readonly number[];
              lamports: bigint;
              atMs: number;
            },
          ): Promise<
            { order: Selectable<OrdersTable>; execution: Selectable<ExecutionsTable> } | undefined
          > => {
            const q = claimQuery(t, now);
            const first = q.parameters.length;
            const reserving = reserved !== undefined;
            let text = pgTexts.get(reserving);
            if (text === undefined) pgTexts.set(reserving, (text = pgClaimSql(q.sql, first, reserving)));
            const values = insertParams(e, e.createdAt ?? now);
            const parameters = [
              ...q.parameters,
              `order.${t.to}`,
              ...values,
              ...(reserved === undefined
                ? []
                : [[...reserved.keyIds], reserved.lamports.toString(), reserved.atMs]),
            ];
            type Row = Selectable<OrdersTable>;
            const statement = CompiledQuery.raw(text, parameters);
            const r =
              reserved === undefined
                ? await pg<Row>(statement)
                : await reserved.trx.executeQuery<Row>(statement);
            const row = r.rows[0];
            if (row === undefined) return undefined;
            return { order: row, execution: insertedRow(values) as Selectable<ExecutionsTable> };
          },
  };
}

/**
 * The claim `claimSql` (the conditional update, `returning *`, parameters $1..$first) with its `order.<to>` event
 * and the pending execution, as one statement of data-modifying CTEs: the event and the execution are written
 * only when the update matched (they read its row), all three or none, in one commit. Parameters after the
 * claim's: the event type, then the execution's INSERT_COLUMNS. The event is what order-event-statements.ts
 * writes (its id from the same sequence upsert); the execution's events trigger runs at the statement's end and
 * sees that upsert, so the order's event comes first, as in the general path. No NOTIFY of its own: that
 * trigger sends the account's wake-up in the same commit (a fire's execution is the order's account's), and
 * PostgreSQL delivers a transaction's identical notifications once. `reserving`: then the execution's
 * reservation rows too (parameters after the execution's: the keys as an array, the lamports, the time).
 */
export function pgClaimSql(claimSql: string, first: number, reserving = false): string {
  const p = (i: number) => `$${first + i}`;
  const execution = INSERT_COLUMNS.map((c, i) => `${p(2 + i)}::${INSERT_TYPES[c]}`);
  const r = 2 + INSERT_COLUMNS.length;
  const ctes = [
    `c as (${claimSql})`,
    `s as (insert into event_sequences (api_key_id, last_id) select account_id, 1 from c ` +
      `on conflict (api_key_id) do update set last_id = event_sequences.last_id + 1 returning last_id)`,
    `v as (insert into events (api_key_id, id, type, kind, execution_id, wallet, wallets, signatures, status, ` +
      `error, created_at) select c.account_id, s.last_id, ${p(1)}::text, 'order', c.id, c.wallet, ` +
      `json_build_array(c.wallet)::text, '[]', c.state, c.error, c.updated_at from c cross join s)`,
    `x as (insert into executions (${INSERT_COLUMNS.map(quoted).join(", ")}) ` +
      `select ${execution.join(", ")} where exists (select 1 from c))`,
    // The execution's id is its first column.
    ...(reserving
      ? [
          `r as (insert into spend_reservations (key_id, execution_id, lamports, at_ms) ` +
            `select k, ${p(2)}::text, ${p(r + 1)}::bigint, ${p(r + 2)}::bigint ` +
            `from unnest(${p(r)}::integer[]) as k where exists (select 1 from c))`,
        ]
      : []),
  ];
  return `with ${ctes.join(", ")} select c.* from c`;
}
