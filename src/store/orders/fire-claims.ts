/**
 * What the fire claims of snipe and copy orders share (both engines): the claim runs under the open order's row
 * lock (an update of the row), so two processes claiming against one order's caps take turns; a claim writes the
 * order's `order.triggered` event in its transaction; the claims of an order are listed in the time order.
 */
import { sql, type CompiledQuery, type Kysely, type Selectable } from "kysely";
import type { Database, OrdersTable } from "../schema.js";
import type { FirePage } from "./order-types.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { toOrder } from "./kysely-orders.js";
import { orderEventStatements, type OrderEvents } from "./order-event-statements.js";
import { compiledQuery } from "../engine/compiled-once.js";
import { runClaimProgram, type ClaimProgram } from "../engine/claim-program.js";
import type { SqliteConnection } from "../engine/sqlite-statements.js";

/** The claim tables and the column that, beside the order, keys one fire (the listing's second order). */
export interface FireTables {
  order_fires: "mint";
  order_copy_fires: "signature";
}

/** A claim step's verdict: `claimed` writes the event and wakes the account; `value` is what the claim answers. */
export interface ClaimStep<R> {
  claimed: boolean;
  value: R;
}

/** Where a claim runs: the store's engine, clock and outbox wake-up, and the statements every claim writes. */
export interface ClaimContext {
  db: Kysely<Database>;
  clock: () => Date;
  wake: (accountId: number) => void;
  /** SQLite: the connection under `db`, on which a claim runs synchronously (engine/claim-program.ts). */
  sqlite?: SqliteConnection;
  /**
   * The open order row's lock (an update of the row that changes nothing): the row, or none when the order is not
   * open. No claim step writes the order row, so it is the row the claim's event describes.
   */
  lock: (a: { id: string }) => CompiledQuery;
  /** The order's event, as statements of a program. */
  event: OrderEvents["program"];
}

/** The claim context over `db`, its statements compiled once. */
export function claimContext(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  wake: (accountId: number) => void,
  sqlite?: SqliteConnection,
): ClaimContext {
  return {
    db,
    clock,
    wake,
    ...(sqlite !== undefined ? { sqlite } : {}),
    lock: compiledQuery(["id"], (a: { id: string }) =>
      db
        .updateTable("orders")
        .set({ version: sql`version` })
        .where("id", "=", a.id)
        .where("state", "=", "open")
        .returningAll(),
    ),
    event: orderEventStatements(db, dialect).program,
  };
}

/**
 * Runs `step` in one transaction under the lock of order `orderId` while it is open (`closed` is answered
 * otherwise); a claimed step writes `order.triggered` in that transaction and `accountId` is woken after commit.
 */
export async function claimUnderOrderLock<R>(
  ctx: ClaimContext,
  orderId: string,
  accountId: number,
  closed: R,
  step: () => ClaimProgram<ClaimStep<R>>,
): Promise<R> {
  function* program(): ClaimProgram<ClaimStep<R>> {
    const [row] = (yield ctx.lock({ id: orderId })) as Selectable<OrdersTable>[];
    if (row === undefined) return { claimed: false, value: closed };
    const s = yield* step();
    if (!s.claimed) return s;
    yield* ctx.event({ ...toOrder(row), updatedAt: isoNoZone(ctx.clock()) }, "order.triggered");
    return s;
  }
  const out = await runClaimProgram(ctx.db, ctx.sqlite, program);
  if (out.claimed) ctx.wake(accountId);
  return out.value;
}

/** The rows of `table` for order `orderId`, oldest first (ties by the fire's key column). */
export async function firesOf<T extends keyof FireTables>(
  db: Kysely<Database>,
  table: T,
  key: FireTables[T],
  orderId: string,
): Promise<Selectable<Database[T]>[]> {
  const { rows } = await sql<Selectable<Database[T]>>`select * from ${sql.table(table)}
    where order_id = ${orderId} order by at_ms, ${sql.ref(key)}`.execute(db);
  return rows;
}

/** A page of the rows of `table` for order `orderId`, newest first, after `page.after` (a keyset cursor). */
export async function firePage<T extends keyof FireTables>(
  db: Kysely<Database>,
  table: T,
  key: FireTables[T],
  orderId: string,
  page: FirePage,
): Promise<Selectable<Database[T]>[]> {
  const after = page.after;
  const before =
    after === undefined
      ? sql``
      : sql`and (at_ms < ${after.atMs} or (at_ms = ${after.atMs} and ${sql.ref(key)} < ${after.key}))`;
  const { rows } = await sql<Selectable<Database[T]>>`select * from ${sql.table(table)}
    where order_id = ${orderId} ${before} order by at_ms desc, ${sql.ref(key)} desc limit ${page.limit}`.execute(
    db,
  );
  return rows;
}
