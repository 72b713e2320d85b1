/**
 * The fire claims of standing orders (snipe), both engines: one row per (order, mint) under a primary key, so a
 * mint is fired once whatever the number of processes (a fire the key's policy refused keeps its row with the
 * refusal and may be claimed again); the hourly cap is counted under the order row's lock
 * (an update of the row), so two processes cannot both take the last slot.
 */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { appendOrderExecution } from "./kysely-orders.js";
import { claimUnderOrderLock, firePage, firesOf } from "./fire-claims.js";
import type { FirePage, OrderFireClaim, OrderFireRecord, OrderFireStore } from "./order-types.js";

function toOrderFire(r: Database["order_fires"]): OrderFireRecord {
  return {
    orderId: r.order_id,
    accountId: Number(r.account_id),
    mint: r.mint,
    lamports: BigInt(r.lamports),
    executionId: r.execution_id,
    atMs: Number(r.at_ms),
    refused: r.refused === null ? null : (JSON.parse(r.refused) as unknown),
    outcome: r.outcome ?? null,
  };
}

/**
 * The fire-claim methods over `db`; a claimed fire writes an `order.triggered` event (the order stays open) in
 * the claim's transaction, and `wake` is told of the account after commit.
 */
export function kyselyOrderFires(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  wake: (accountId: number) => void,
): OrderFireStore {
  const ctx = { db, dialect, clock, wake };
  return {
    async claimOrderFire(c: OrderFireClaim) {
      return claimUnderOrderLock(ctx, c.orderId, c.accountId, "closed" as const, async (trx) => {
        if (c.window !== null) {
          const { n } = await trx
            .selectFrom("order_fires")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("order_id", "=", c.orderId)
            .where("at_ms", ">=", c.window.sinceMs)
            .where("refused", "is", null)
            // A fire that failed before its record sent nothing: its slot is free again (as a copy's SOL is).
            .where((eb) =>
              eb.or([
                eb("execution_id", "is not", null),
                eb("outcome", "is", null),
                eb("outcome", "not like", "failed:%"),
              ]),
            )
            .executeTakeFirstOrThrow();
          if (Number(n) >= c.window.max) return { claimed: false, value: "cap" as const };
        }
        const r = await trx
          .insertInto("order_fires")
          .values({
            order_id: c.orderId,
            mint: c.mint,
            account_id: c.accountId,
            lamports: c.lamports.toString(),
            execution_id: null,
            at_ms: c.atMs,
            refused: null,
            outcome: null,
          })
          .onConflict((oc) => oc.columns(["order_id", "mint"]).doNothing())
          .executeTakeFirst();
        if (Number(r.numInsertedOrUpdatedRows ?? 0n) !== 1) {
          // A fire the policy refused used nothing: it is claimed again (by one claimant: conditional update).
          const again = await trx
            .updateTable("order_fires")
            .set({ refused: null, at_ms: c.atMs, lamports: c.lamports.toString() })
            .where("order_id", "=", c.orderId)
            .where("mint", "=", c.mint)
            .where("refused", "is not", null)
            .executeTakeFirst();
          if (Number(again.numUpdatedRows) !== 1) return { claimed: false, value: "fired" as const };
        }
        return { claimed: true, value: "claimed" as const };
      });
    },

    async refuseOrderFire(orderId: string, mint: string, refusal: unknown) {
      await db
        .updateTable("order_fires")
        .set({ refused: JSON.stringify(refusal) })
        .where("order_id", "=", orderId)
        .where("mint", "=", mint)
        .where("execution_id", "is", null)
        .execute();
    },

    async failOrderFire(orderId: string, mint: string, outcome: string) {
      await db
        .updateTable("order_fires")
        .set({ outcome })
        .where("order_id", "=", orderId)
        .where("mint", "=", mint)
        .where("execution_id", "is", null)
        .where("refused", "is", null)
        .execute();
    },

    async unsettledOrderFires(beforeMs: number, limit: number): Promise<OrderFireRecord[]> {
      const rows = await db
        .selectFrom("order_fires")
        .selectAll()
        .where("outcome", "is", null)
        .where("refused", "is", null)
        .where("execution_id", "is", null)
        .where("at_ms", "<", beforeMs)
        .orderBy("at_ms")
        .limit(limit)
        .execute();
      return rows.map(toOrderFire);
    },

    async reconcileOrderFire(orderId: string, mint: string, executionId: string | null, outcome: string) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable("order_fires")
          .set({ execution_id: executionId, outcome })
          .where("order_id", "=", orderId)
          .where("mint", "=", mint)
          .where("outcome", "is", null)
          .where("refused", "is", null)
          .where("execution_id", "is", null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        if (executionId !== null) await appendOrderExecution(trx, orderId, executionId);
        return true;
      });
    },

    async setOrderFireExecution(orderId: string, mint: string, executionId: string, outcome: string) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("order_fires")
          .set({ execution_id: executionId, outcome })
          .where("order_id", "=", orderId)
          .where("mint", "=", mint)
          .execute();
        await appendOrderExecution(trx, orderId, executionId);
      });
    },

    async orderFires(orderId: string): Promise<OrderFireRecord[]> {
      return (await firesOf(db, "order_fires", "mint", orderId)).map(toOrderFire);
    },

    async orderFirePage(orderId: string, page: FirePage): Promise<OrderFireRecord[]> {
      return (await firePage(db, "order_fires", "mint", orderId, page)).map(toOrderFire);
    },
  };
}
