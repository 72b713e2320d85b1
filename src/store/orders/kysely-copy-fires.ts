/**
 * The fire claims of copy orders, both engines: one row per (order, followed trade signature) under a primary
 * key, so a followed trade is copied once whatever the number of processes. The caps (SOL per token, per 24 h)
 * are summed under the order row's lock (an update of the row), so two processes cannot both spend the last of a
 * cap; a skipped trade is a row too (its reason recorded, never tried again).
 */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { appendOrderExecution } from "./kysely-orders.js";
import { claimUnderOrderLock, firePage, firesOf, type ClaimContext } from "./fire-claims.js";
import { compiledQuery } from "../engine/compiled-once.js";
import type { ClaimProgram } from "../engine/claim-program.js";
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

/** The statements of a copy claim's step, compiled once. */
function copyClaimStatements(db: Kysely<Database>) {
  const bought = db.selectFrom("order_copy_fires").select("lamports").where("side", "=", "buy");
  return {
    /** The SOL the order's buys of `mint` claimed. */
    ofToken: compiledQuery(["orderId", "mint"], (a: { orderId: string; mint: string }) =>
      bought.where("order_id", "=", a.orderId).where("mint", "=", a.mint),
    ),
    /** The SOL the order's buys claimed since `sinceMs`. */
    since: compiledQuery(["orderId", "sinceMs"], (a: { orderId: string; sinceMs: number }) =>
      bought.where("order_id", "=", a.orderId).where("at_ms", ">=", a.sinceMs),
    ),
    /** The claim's row; its key back when inserted, nothing when the trade was already claimed. */
    insert: compiledQuery(COPY_FIRE_COLUMNS, (a: Record<(typeof COPY_FIRE_COLUMNS)[number], unknown>) =>
      db
        .insertInto("order_copy_fires")
        .values(a as never)
        .onConflict((oc) => oc.columns(["order_id", "signature"]).doNothing())
        .returning("order_id"),
    ),
  };
}

const COPY_FIRE_COLUMNS = [
  "order_id",
  "signature",
  "account_id",
  "mint",
  "side",
  "lamports",
  "execution_id",
  "outcome",
  "at_ms",
  "trader",
  "their_lamports",
  "their_units",
  "our_amount",
] as const;

const sumOf = (rows: unknown[]): bigint =>
  (rows as { lamports: string }[]).reduce((t, r) => t + BigInt(r.lamports), 0n);

/** The SOL a buy may spend within the order's caps, or the cap that skips it (counted under the order's lock). */
function* withinCaps(
  s: ReturnType<typeof copyClaimStatements>,
  c: CopyFireClaim,
): ClaimProgram<{ lamports: bigint; skip: string | null }> {
  let lamports = c.lamports;
  let skip = c.skip;
  if (skip !== null || c.side !== "buy") return { lamports, skip };
  if (c.perTokenLamports !== null) {
    const used = sumOf(yield s.ofToken({ orderId: c.orderId, mint: c.mint }));
    const cut = leftOf(lamports, c.perTokenLamports, used);
    if (cut === 0n) skip = "max_per_token";
    lamports = cut;
  }
  if (skip === null && c.perDay !== null) {
    const used = sumOf(yield s.since({ orderId: c.orderId, sinceMs: c.perDay.sinceMs }));
    const cut = leftOf(lamports, c.perDay.lamports, used);
    if (cut === 0n) skip = "max_per_day";
    lamports = cut;
  }
  return { lamports, skip };
}

/**
 * The copy-claim methods over the claim context (its `db`, clock and wake-up, shared with the snipe claims); a
 * claimed fire writes an `order.triggered` event (the order stays open) in the claim's transaction, and the
 * context's `wake` is told of the account after commit.
 */
export function kyselyCopyFires(ctx: ClaimContext): CopyFireStore {
  const { db } = ctx;
  const statements = copyClaimStatements(db);
  return {
    async claimCopyFire(c: CopyFireClaim): Promise<CopyClaimResult> {
      const closed: CopyClaimResult = { result: "closed" };
      return claimUnderOrderLock<CopyClaimResult>(ctx, c.orderId, c.accountId, closed, function* () {
        const { lamports, skip } = yield* withinCaps(statements, c);
        const inserted = yield statements.insert({
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
        });
        if (inserted.length !== 1) return { claimed: false, value: { result: "fired" } };
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
