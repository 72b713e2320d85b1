/**
 * The fire claims of copy orders, both engines: one row per (order, followed trade signature) under a primary
 * key, so a followed trade is copied once whatever the number of processes. The caps (SOL per token, per 24 h)
 * are summed under the order row's lock (an update of the row), so two processes cannot both spend the last of a
 * cap; a skipped trade is a row too (its reason recorded, never tried again).
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { appendEvent, appendOrderExecution, toOrder } from "./kysely-orders.js";
import type {
  CopyClaimResult,
  CopyFireClaim,
  CopyFireRecord,
  CopyFireStore,
  FirePage,
} from "./order-types.js";
import { solText } from "../../core/amounts.js";

type CopyFireRow = Database["order_copy_fires"];

const textBig = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function toCopyFire(r: CopyFireRow): CopyFireRecord {
  return {
    orderId: r.order_id,
    accountId: Number(r.account_id),
    signature: r.signature,
    mint: r.mint,
    side: r.side === "sell" ? "sell" : "buy",
    lamports: BigInt(r.lamports),
    executionId: r.execution_id,
    outcome: r.outcome,
    atMs: Number(r.at_ms),
    trader: r.trader,
    theirLamports: textBig(r.their_lamports),
    theirUnits: textBig(r.their_units),
    ourAmount: r.our_amount,
  };
}

/** What the caps leave of `want` given the SOL already claimed (never below 0). */
function leftOf(want: bigint, cap: bigint | null, used: bigint): bigint {
  if (cap === null) return want;
  const left = cap - used;
  return left <= 0n ? 0n : left < want ? left : want;
}

/**
 * The copy-claim methods over `db`; a claimed fire writes an `order.triggered` event (the order stays open) in
 * the claim's transaction, and `wake` is told of the account after commit.
 */
export function kyselyCopyFires(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  wake: (accountId: number) => void,
): CopyFireStore {
  return {
    async claimCopyFire(c: CopyFireClaim): Promise<CopyClaimResult> {
      const result = await db.transaction().execute(async (trx): Promise<CopyClaimResult> => {
        const locked = await trx
          .updateTable("orders")
          .set({ version: sql`version` })
          .where("id", "=", c.orderId)
          .where("state", "=", "open")
          .executeTakeFirst();
        if (Number(locked.numUpdatedRows) === 0) return { result: "closed" };
        let lamports = c.lamports;
        let skip = c.skip;
        if (skip === null && c.side === "buy") {
          const sum = async (since: number | null, mint: string | null): Promise<bigint> => {
            let q = trx
              .selectFrom("order_copy_fires")
              .select("lamports")
              .where("order_id", "=", c.orderId)
              .where("side", "=", "buy");
            if (mint !== null) q = q.where("mint", "=", mint);
            if (since !== null) q = q.where("at_ms", ">=", since);
            return (await q.execute()).reduce((t, r) => t + BigInt(r.lamports), 0n);
          };
          if (c.perTokenLamports !== null) {
            const cut = leftOf(lamports, c.perTokenLamports, await sum(null, c.mint));
            if (cut === 0n) skip = "max_per_token";
            lamports = cut;
          }
          if (skip === null && c.perDay !== null) {
            const cut = leftOf(lamports, c.perDay.lamports, await sum(c.perDay.sinceMs, null));
            if (cut === 0n) skip = "max_per_day";
            lamports = cut;
          }
        }
        const r = await trx
          .insertInto("order_copy_fires")
          .values({
            order_id: c.orderId,
            signature: c.signature,
            account_id: c.accountId,
            mint: c.mint,
            side: c.side,
            lamports: (skip === null ? lamports : 0n).toString(),
            execution_id: null,
            outcome: skip === null ? null : `skipped:${skip}`,
            at_ms: c.atMs,
            trader: c.trader,
            their_lamports: c.theirLamports.toString(),
            their_units: c.theirUnits.toString(),
            our_amount: skip !== null ? null : c.side === "buy" ? solText(lamports) : c.sellAmount,
          })
          .onConflict((oc) => oc.columns(["order_id", "signature"]).doNothing())
          .executeTakeFirst();
        if (Number(r.numInsertedOrUpdatedRows ?? 0n) !== 1) return { result: "fired" };
        if (skip !== null) return { result: "skipped", reason: skip };
        const row = await trx
          .selectFrom("orders")
          .selectAll()
          .where("id", "=", c.orderId)
          .executeTakeFirstOrThrow();
        await appendEvent(
          trx,
          dialect,
          { ...toOrder(row), updatedAt: isoNoZone(clock()) },
          "order.triggered",
        );
        return { result: "claimed", lamports };
      });
      if (result.result === "claimed") wake(c.accountId);
      return result;
    },

    async settleCopyFire(orderId: string, signature: string, executionId: string | null, outcome: string) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("order_copy_fires")
          .set({
            execution_id: executionId,
            outcome,
            // Nothing was sent: the SOL it claimed goes back to the caps.
            ...(executionId === null ? { lamports: "0" } : {}),
          })
          .where("order_id", "=", orderId)
          .where("signature", "=", signature)
          .execute();
        if (executionId === null) return;
        await appendOrderExecution(trx, orderId, executionId);
      });
    },

    async copyFires(orderId: string): Promise<CopyFireRecord[]> {
      const rows = await db
        .selectFrom("order_copy_fires")
        .selectAll()
        .where("order_id", "=", orderId)
        .orderBy("at_ms")
        .orderBy("signature")
        .execute();
      return rows.map(toCopyFire);
    },

    async unsettledCopyFires(beforeMs: number, limit: number): Promise<CopyFireRecord[]> {
      const rows = await db
        .selectFrom("order_copy_fires")
        .selectAll()
        .where("outcome", "is", null)
        .where("at_ms", "<", beforeMs)
        .orderBy("at_ms")
        .limit(limit)
        .execute();
      return rows.map(toCopyFire);
    },

    async reconcileCopyFire(orderId: string, signature: string, executionId: string | null, outcome: string) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable("order_copy_fires")
          .set({ execution_id: executionId, outcome })
          .where("order_id", "=", orderId)
          .where("signature", "=", signature)
          .where("outcome", "is", null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        if (executionId !== null) await appendOrderExecution(trx, orderId, executionId);
        return true;
      });
    },

    async copyFirePage(orderId: string, page: FirePage): Promise<CopyFireRecord[]> {
      let q = db.selectFrom("order_copy_fires").selectAll().where("order_id", "=", orderId);
      const after = page.after;
      if (after !== undefined)
        q = q.where((eb) =>
          eb.or([
            eb("at_ms", "<", after.atMs),
            eb.and([eb("at_ms", "=", after.atMs), eb("signature", "<", after.key)]),
          ]),
        );
      const rows = await q.orderBy("at_ms", "desc").orderBy("signature", "desc").limit(page.limit).execute();
      return rows.map(toCopyFire);
    },
  };
}
