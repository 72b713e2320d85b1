/** The execution-history half of the Kysely store (both engines), including the reconciliation lease. */
import type { ExpressionBuilder, Kysely, Selectable, Updateable } from "kysely";
import { executionValues, type ExecutionWriter } from "./execution-statements.js";
import type { Database, ExecutionsTable } from "../schema.js";
import {
  OPEN_EXECUTION_STATUSES,
  type ExecutionKind,
  type ExecutionPatch,
  type ExecutionRecord,
  type ExecutionStatus,
  type ListExecutionsQuery,
  type NewExecution,
  type Store,
} from "../types.js";
import { walletsWithin } from "../keys/wallet-scope.js";
import { applyFillBesideOutcome } from "../positions/apply-fill.js";
import { executionFillsOf } from "../positions/execution-fills.js";

type ExecutionStore = Pick<
  Store,
  | "insertExecution"
  | "updateExecution"
  | "listExecutions"
  | "claimOpenExecutions"
  | "settleExecution"
  | "deferExecution"
>;

// Open statuses of records whose request has returned (sent, no verdict yet); "pending" may still be waited on.
const SENT_STATUSES: ExecutionStatus[] = ["submitted", "timeout"];

/** ISO 8601 in UTC without the zone suffix, the wire format of created_at. */
export function isoNoZone(d: Date): string {
  return d.toISOString().slice(0, -1);
}

/** JSON text that tolerates bigint (stored as a decimal string). */
function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x));
}

function fromJson(v: string | null): unknown {
  return v === null ? null : (JSON.parse(v) as unknown);
}

/** A stored execution row as a record. */
export function toExecution(r: Selectable<ExecutionsTable>): ExecutionRecord {
  return {
    id: r.id,
    apiKeyId: Number(r.api_key_id),
    kind: r.kind as ExecutionKind,
    wallet: r.wallet,
    wallets: fromJson(r.wallets) as string[],
    signatures: fromJson(r.signatures) as string[],
    bundleId: r.bundle_id,
    status: r.status as ExecutionStatus,
    confirmationStatus: r.confirmation_status,
    request: fromJson(r.request),
    response: fromJson(r.response),
    error: fromJson(r.error),
    timings: fromJson(r.timings),
    // PostgreSQL returns bigint columns as strings.
    lastValidBlockHeight: r.last_valid_block_height === null ? null : Number(r.last_valid_block_height),
    idempotencyKey: r.idempotency_key,
    computeUnitPriceMicroLamports:
      r.compute_unit_price_micro_lamports === null ? null : BigInt(r.compute_unit_price_micro_lamports),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The columns a patch changes, plus the update time. */
function patchColumns(patch: ExecutionPatch, updatedAt: string): Updateable<ExecutionsTable> {
  const set: Updateable<ExecutionsTable> = { updated_at: updatedAt };
  if (patch.signatures !== undefined) set.signatures = toJson(patch.signatures);
  if (patch.wallets !== undefined) set.wallets = toJson(patch.wallets);
  if (patch.bundleId !== undefined) set.bundle_id = patch.bundleId;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.confirmationStatus !== undefined) set.confirmation_status = patch.confirmationStatus;
  if (patch.response !== undefined) set.response = toJson(patch.response);
  if (patch.error !== undefined) set.error = toJson(patch.error);
  if (patch.timings !== undefined) set.timings = toJson(patch.timings);
  return set;
}

/**
 * Issue 33: whether a patch records a trade's fill (`response.fill`): such a write runs in a transaction with the
 * positions ledger's update, not through the request path's prepared or batched statements.
 */
export function patchRecordsFill(patch: ExecutionPatch): boolean {
  const r = patch.response;
  if (typeof r !== "object" || r === null) return false;
  // A trade's or a create's one fill, or a bundle's fills per leg.
  const { fill, fills } = r as { fill?: unknown; fills?: unknown };
  return fill != null || (Array.isArray(fills) && fills.length > 0);
}

/**
 * The execution methods over an open Kysely instance; with `writer`, the request path's insert and update run
 * as the driver's prepared statements instead (execution-statements.ts).
 */
export function kyselyExecutions(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  writer?: ExecutionWriter,
): ExecutionStore {
  return {
    async insertExecution(e: NewExecution) {
      const now = e.createdAt ?? isoNoZone(clock());
      if (writer !== undefined) {
        return toExecution((await writer.insert(e, now)) as Selectable<ExecutionsTable>);
      }
      const row = await db
        .insertInto("executions")
        .values(executionValues(e, now))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toExecution(row);
    },

    async updateExecution(id, patch: ExecutionPatch) {
      if (patchRecordsFill(patch)) {
        const now = isoNoZone(clock());
        return db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable("executions")
            .set(patchColumns(patch, now))
            .where("id", "=", id)
            .returningAll()
            .executeTakeFirst();
          if (row === undefined) return undefined;
          for (const fill of executionFillsOf(row)) await applyFillBesideOutcome(trx, dialect, fill, now);
          return toExecution(row);
        });
      }
      if (writer !== undefined) {
        const r = await writer.update(id, patch, isoNoZone(clock()));
        return r === undefined ? undefined : toExecution(r as Selectable<ExecutionsTable>);
      }
      const row = await db
        .updateTable("executions")
        .set(patchColumns(patch, isoNoZone(clock())))
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toExecution(row);
    },

    async listExecutions(q: ListExecutionsQuery) {
      let query = db
        .selectFrom("executions")
        .selectAll()
        .where("api_key_id", "=", q.apiKeyId)
        .where("delinked_at", "is", null);
      if (q.wallet !== undefined) query = query.where("wallet", "=", q.wallet);
      if (q.kind !== undefined) query = query.where("kind", "=", q.kind);
      if (q.status !== undefined) query = query.where("status", "=", q.status);
      if (q.onlyWallets !== undefined)
        query = query.where(walletsWithin(dialect, "executions.wallets", q.onlyWallets));
      // Signatures are a JSON array of base58 strings; base58 has no LIKE wildcard characters (% _), and the
      // quotes anchor the match to a whole element.
      if (q.signature !== undefined) query = query.where("signatures", "like", `%"${q.signature}"%`);
      const before = q.before;
      if (before !== undefined) {
        query = query.where((eb) =>
          eb.or([
            eb("created_at", "<", before.createdAt),
            eb.and([eb("created_at", "=", before.createdAt), eb("id", "<", before.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(q.limit)
        .offset(q.offset ?? 0)
        .execute();
      return rows.map(toExecution);
    },

    async claimOpenExecutions(c) {
      // Not leased, lease lapsed, or leased by the claimer itself (it may renew); checked again in the update.
      const leasable = (eb: ExpressionBuilder<Database, "executions">) =>
        eb.or([
          eb("reconcile_until_ms", "is", null),
          eb("reconcile_until_ms", "<", c.nowMs),
          eb("reconcile_owner", "=", c.owner),
        ]);
      let candidates = db
        .selectFrom("executions")
        .select("id")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "pending"), eb("updated_at", "<=", c.updatedNotAfter)]),
            eb.and([
              eb("status", "in", SENT_STATUSES),
              eb("updated_at", "<=", c.sentUpdatedNotAfter ?? c.updatedNotAfter),
            ]),
          ]),
        )
        .where(leasable)
        .orderBy("updated_at", "asc")
        .limit(c.limit);
      // PostgreSQL: processes claiming at once skip each other's rows instead of waiting or double-claiming.
      // SQLite runs one write statement at a time, which is already exclusive.
      if (dialect === "postgres") candidates = candidates.forUpdate().skipLocked();
      const rows = await db
        .updateTable("executions")
        .set({ reconcile_owner: c.owner, reconcile_until_ms: c.leaseUntilMs })
        .where("id", "in", candidates)
        .where(leasable)
        .returningAll()
        .execute();
      return rows.map(toExecution);
    },

    async deferExecution(id, owner, notBeforeMs) {
      // Owner cleared, lease end kept as "not before": nobody's lease, and not leasable until it passes.
      const r = await db
        .updateTable("executions")
        .set({ reconcile_owner: null, reconcile_until_ms: notBeforeMs })
        .where("id", "=", id)
        .where("reconcile_owner", "=", owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async settleExecution(id, owner, patch) {
      if (patchRecordsFill(patch)) {
        const now = isoNoZone(clock());
        return db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable("executions")
            .set({ ...patchColumns(patch, now), reconcile_owner: null, reconcile_until_ms: null })
            .where("id", "=", id)
            .where("reconcile_owner", "=", owner)
            .where("status", "in", OPEN_EXECUTION_STATUSES)
            .returningAll()
            .executeTakeFirst();
          if (row === undefined) return false;
          for (const fill of executionFillsOf(row)) await applyFillBesideOutcome(trx, dialect, fill, now);
          return true;
        });
      }
      const r = await db
        .updateTable("executions")
        .set({ ...patchColumns(patch, isoNoZone(clock())), reconcile_owner: null, reconcile_until_ms: null })
        .where("id", "=", id)
        .where("reconcile_owner", "=", owner)
        .where("status", "in", OPEN_EXECUTION_STATUSES)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
