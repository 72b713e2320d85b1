/**
 * The fire claims of standing orders (snipe), both engines: one row per (order, mint) under a primary key, so a
 * mint is fired once whatever the number of processes (a fire the key's policy refused keeps its row with the
 * refusal and may be claimed again); the hourly cap is counted under the order row's lock
 * (an update of the row), so two processes cannot both take the last slot.
 */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { appendOrderExecution } from "./kysely-orders.js";
import { claimUnderOrderLock, firePage, firesOf, type ClaimContext } from "./fire-claims.js";
import { compiledQuery } from "../engine/compiled-once.js";
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

/** The statements of a snipe claim's step, compiled once. */
function orderFireStatements(db: Kysely<Database>) {
  return {
    /** The fires that hold a slot of the order's window since `sinceMs`. */
    held: compiledQuery(["orderId", "sinceMs"], (a: { orderId: string; sinceMs: number }) =>
      db
        .selectFrom("order_fires")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("order_id", "=", a.orderId)
        .where("at_ms", ">=", a.sinceMs)
        .where("refused", "is", null)
        // A fire that failed before its record sent nothing: its slot is free again (as a copy's SOL is).
        .where((eb) =>
          eb.or([
            eb("execution_id", "is not", null),
            eb("outcome", "is", null),
            eb("outcome", "not like", "failed:%"),
          ]),
        ),
    ),
    /** The claim's row; its key back when inserted, nothing when the mint was already claimed. */
    insert: compiledQuery(
      ["orderId", "mint", "accountId", "lamports", "atMs"],
      (a: { orderId: string; mint: string; accountId: number; lamports: string; atMs: number }) =>
        db
          .insertInto("order_fires")
          .values({
            order_id: a.orderId,
            mint: a.mint,
            account_id: a.accountId,
            lamports: a.lamports,
            execution_id: null,
            at_ms: a.atMs,
            refused: null,
            outcome: null,
          })
          .onConflict((oc) => oc.columns(["order_id", "mint"]).doNothing())
          .returning("order_id"),
    ),
    /** A fire the policy refused, claimed again (by one claimant: conditional update); its key back when taken. */
    again: compiledQuery(
      ["orderId", "mint", "lamports", "atMs"],
      (a: { orderId: string; mint: string; lamports: string; atMs: number }) =>
        db
          .updateTable("order_fires")
          .set({ refused: null, at_ms: a.atMs, lamports: a.lamports })
          .where("order_id", "=", a.orderId)
          .where("mint", "=", a.mint)
          .where("refused", "is not", null)
          .returning("order_id"),
    ),
  };
}

/**
 * The fire-claim methods over the claim context (its `db`, clock and wake-up, shared with the copy claims); a
 * claimed fire writes an `order.triggered` event (the order stays open) in the claim's transaction, and the
 * context's `wake` is told of the account after commit.
 */
export function kyselyOrderFires(ctx: ClaimContext): OrderFireStore {
  const { db } = ctx;
  const statements = orderFireStatements(db);
  return {
    async claimOrderFire(c: OrderFireClaim) {
      return claimUnderOrderLock(ctx, c.orderId, c.accountId, "closed" as const, function* () {
        if (c.window !== null) {
          const [held] = (yield statements.held({ orderId: c.orderId, sinceMs: c.window.sinceMs })) as {
            n: number | string;
          }[];
          if (Number(held!.n) >= c.window.max) return { claimed: false, value: "cap" as const };
        }
        const fire = { orderId: c.orderId, mint: c.mint, lamports: c.lamports.toString(), atMs: c.atMs };
        const inserted = yield statements.insert({ ...fire, accountId: c.accountId });
        // A fire the policy refused used nothing: it is claimed again.
        if (inserted.length !== 1 && (yield statements.again(fire)).length !== 1)
          return { claimed: false, value: "fired" as const };
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
