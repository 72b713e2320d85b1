/**
 * What the fire claims of snipe and copy orders share (both engines): the claim runs under the open order's row
 * lock (an update of the row), so two processes claiming against one order's caps take turns; a claim writes the
 * order's `order.triggered` event in its transaction; the claims of an order are listed in the time order.
 */
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { Database } from "../schema.js";
import type { FirePage } from "./order-types.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { appendEvent, toOrder } from "./kysely-orders.js";

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

/** Where a claim runs: the store's engine, clock and outbox wake-up. */
export interface ClaimContext {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  clock: () => Date;
  wake: (accountId: number) => void;
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
  step: (trx: Transaction<Database>) => Promise<ClaimStep<R>>,
): Promise<R> {
  const out = await ctx.db.transaction().execute(async (trx): Promise<ClaimStep<R>> => {
    const locked = await trx
      .updateTable("orders")
      .set({ version: sql`version` })
      .where("id", "=", orderId)
      .where("state", "=", "open")
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) return { claimed: false, value: closed };
    const s = await step(trx);
    if (!s.claimed) return s;
    const row = await trx
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    await appendEvent(
      trx,
      ctx.dialect,
      { ...toOrder(row), updatedAt: isoNoZone(ctx.clock()) },
      "order.triggered",
    );
    return s;
  });
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
