/**
 * The fire claims of copy orders, both engines: one row per (order, followed trade signature) under a primary
 * key, so a followed trade is copied once whatever the number of processes. The caps (SOL per token, per 24 h)
 * are summed under the order row's lock (an update of the row), so two processes cannot both spend the last of a
 * cap; a skipped trade is a row too (its reason recorded, never tried again).
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../schema.js";
import { appendOrderExecution } from "./kysely-orders.js";
import { claimUnderOrderLock, firePage, firesOf } from "./fire-claims.js";
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

/** The SOL a buy may spend within the order's caps, or the cap that skips it (counted under the order's lock). */
async function withinCaps(
  trx: Transaction<Database>,
  c: CopyFireClaim,
): Promise<{ lamports: bigint; skip: string | null }> {
  let lamports = c.lamports;
  let skip = c.skip;
  if (skip !== null || c.side !== "buy") return { lamports, skip };
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
  return { lamports, skip };
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
  const ctx = { db, dialect, clock, wake };
  return {
    async claimCopyFire(c: CopyFireClaim): Promise<CopyClaimResult> {
      const closed: CopyClaimResult = { result: "closed" };
      return claimUnderOrderLock<CopyClaimResult>(ctx, c.orderId, c.accountId, closed, async (trx) => {
        const { lamports, skip } = await withinCaps(trx, c);
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
        if (Number(r.numInsertedOrUpdatedRows ?? 0n) !== 1)
          return { claimed: false, value: { result: "fired" } };
        if (skip !== null) return { claimed: false, value: { result: "skipped", reason: skip } };
        return { claimed: true, value: { result: "claimed", lamports } };
      });
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
      return (await firesOf(db, "order_copy_fires", "signature", orderId)).map(toCopyFire);
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
      return (await firePage(db, "order_copy_fires", "signature", orderId, page)).map(toCopyFire);
    },
  };
}
