/**
 * The orders half of the Kysely store (both engines). Every state change is one conditional update (`where
 * state = <from>`), so of two processes that evaluated the same crossing only one moves the order: on
 * PostgreSQL the second update waits on the row lock, re-reads the row and matches nothing. The order's
 * `order.<state>` event is written in the same transaction, numbered in the account's event sequence.
 */
import type { Kysely, Selectable, Transaction } from "kysely";
import type { SqliteConnection } from "../engine/sqlite-statements.js";
import type { QueryRunner } from "../engine/query-runner.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { lockKeyRow } from "../keys/key-row-lock.js";
import { reserveAndInsert, reserveSpend } from "../keys/kysely-custody.js";
import { toExecution } from "../executions/kysely-executions.js";
import { claimStatements } from "./claim-statements.js";
import type { OrderEvents } from "./order-event-statements.js";
import { liveKeysParams, liveKeysPredicate } from "./live-keys.js";
import { walletIn } from "../keys/wallet-scope.js";
import { executionIdByKey } from "../idempotency/kysely-idempotency.js";
import type { Database, OrdersTable } from "../schema.js";
import {
  OpenOrderLimitError,
  type NewOrder,
  type OrderRecord,
  type OrderStateName,
  type OrderStore,
  type OrderTransition,
} from "./order-types.js";

const LIVE: OrderStateName[] = ["open", "triggered"];

const json = (v: string | null): unknown => (v === null ? null : (JSON.parse(v) as unknown));

export function toOrder(r: Selectable<OrdersTable>): OrderRecord {
  return {
    id: r.id,
    accountId: Number(r.account_id),
    keyId: Number(r.key_id),
    kind: r.kind,
    side: r.side as "buy" | "sell",
    mint: r.mint,
    wallet: r.wallet,
    spec: r.spec,
    state: r.state as OrderStateName,
    version: Number(r.version),
    attempt: Number(r.attempt),
    leaseOwner: r.lease_owner,
    leaseUntilMs: r.lease_until_ms === null ? null : Number(r.lease_until_ms),
    peak: r.peak,
    triggeredBy: r.triggered_by,
    error: json(r.error),
    executionIds: json(r.execution_ids) as string[],
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Inside `trx`: the conditional update of a state change (see transitionOrder) and its event; the row after, or
 * undefined when the order was not in `t.from` (at `t.version`, held by `t.owner`).
 */
async function applyTransition(
  trx: Transaction<Database>,
  dialect: "sqlite" | "postgres",
  events: OrderEvents,
  t: OrderTransition,
  now: string,
): Promise<OrderRecord | undefined> {
  let q = trx
    .updateTable("orders")
    .set((eb) => ({
      state: t.to,
      version: eb("version", "+", 1),
      updated_at: now,
      ...(t.claim !== undefined
        ? {
            attempt: eb("attempt", "+", 1),
            lease_owner: t.claim.owner,
            lease_until_ms: t.claim.leaseUntilMs,
          }
        : t.to !== "triggered"
          ? { lease_owner: null, lease_until_ms: null }
          : {}),
      ...(t.triggeredBy !== undefined ? { triggered_by: t.triggeredBy } : {}),
      ...(t.error !== undefined ? { error: t.error === null ? null : JSON.stringify(t.error) } : {}),
    }))
    .where("id", "=", t.id)
    .where("state", "=", t.from);
  if (t.version !== undefined) q = q.where("version", "=", t.version);
  if (t.owner !== undefined) q = q.where("lease_owner", "=", t.owner);
  if (t.claim?.live !== undefined) q = q.where(liveKeysPredicate(dialect, liveKeysParams(t.claim.live)));
  const updated = await q.returningAll().executeTakeFirst();
  if (updated === undefined) return undefined;
  let o = toOrder(updated);
  if (t.executionId !== undefined && !o.executionIds.includes(t.executionId)) {
    const ids = [...o.executionIds, t.executionId];
    await trx
      .updateTable("orders")
      .set({ execution_ids: JSON.stringify(ids) })
      .where("id", "=", t.id)
      .execute();
    o = { ...o, executionIds: ids };
  }
  // Back to open (a retry after a failed send) is not a lifecycle event.
  if (t.to !== "open") await events.append(trx, o, `order.${t.to}`);
  return o;
}

/**
 * The orders methods over `db`; `wake` is told (after commit) of each account whose outbox grew. `sqlite`: the
 * SQLite connection under `db`, on which a fire's claim commit runs its statements without Kysely's executor;
 * `pg`: the store's runner of named statements, on which PostgreSQL runs that commit as one statement
 * (claim-statements.ts, pgClaim; unused on SQLite).
 */
export function kyselyOrders(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  wake: (accountId: number) => void,
  sqlite?: SqliteConnection,
  pg?: QueryRunner,
): OrderStore {
  const claims = claimStatements(db, dialect, sqlite, pg);
  /** A claim (claims.fits) inside `trx` with its event, through the compiled-once statements. */
  const claimFast = async (trx: Transaction<Database>, t: OrderTransition, now: string) => {
    const updated = await claims.claim(trx, t, now);
    if (updated === undefined) return undefined;
    const o = toOrder(updated);
    await claims.events.append(trx, o, `order.${t.to}`);
    return o;
  };
  return {
    async insertOrder(order: NewOrder, maxOpen: number) {
      const now = isoNoZone(clock());
      const row = await db.transaction().execute(async (trx) => {
        await lockKeyRow(trx, order.keyId);
        const { n } = await trx
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("key_id", "=", order.keyId)
          .where("state", "in", LIVE)
          .executeTakeFirstOrThrow();
        if (Number(n) >= maxOpen) throw new OpenOrderLimitError(maxOpen);
        const inserted = await trx
          .insertInto("orders")
          .values({
            id: order.id,
            account_id: order.accountId,
            key_id: order.keyId,
            kind: order.kind,
            side: order.side,
            mint: order.mint,
            wallet: order.wallet,
            spec: order.spec,
            state: "open",
            version: 1,
            attempt: 0,
            lease_owner: null,
            lease_until_ms: null,
            peak: order.peak,
            triggered_by: null,
            error: null,
            execution_ids: "[]",
            expires_at: order.expiresAt,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const o = toOrder(inserted);
        await claims.events.append(trx, o, "order.created");
        return o;
      });
      wake(row.accountId);
      return row;
    },

    async findOrder(accountId, id) {
      const r = await db
        .selectFrom("orders")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return r === undefined ? undefined : toOrder(r);
    },

    async listOrders(q) {
      let query = db.selectFrom("orders").selectAll().where("account_id", "=", q.accountId);
      if (q.state !== undefined) query = query.where("state", "=", q.state);
      if (q.mint !== undefined) query = query.where("mint", "=", q.mint);
      if (q.onlyWallets !== undefined) query = query.where("wallet", "in", walletIn(q.onlyWallets));
      const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(q.limit).execute();
      return rows.map(toOrder);
    },

    async liveOrders(since) {
      let query = db.selectFrom("orders").selectAll();
      // A poll after `since` also sees orders that just left the live states (cancelled by another process).
      query = since === undefined ? query.where("state", "in", LIVE) : query.where("updated_at", ">=", since);
      return (await query.orderBy("updated_at").execute()).map(toOrder);
    },

    async transitionOrder(t) {
      const now = isoNoZone(clock());
      const row = await db
        .transaction()
        .execute((trx) => applyTransition(trx, dialect, claims.events, t, now));
      if (row !== undefined && t.to !== "open") wake(row.accountId);
      return row;
    },

    async claimOrderRecording(t, execution, reservation) {
      const now = isoNoZone(clock());
      if (claims.sqliteClaim !== undefined && reservation === null && claims.fits(t)) {
        const r = await claims.sqliteClaim(t, execution, now, toOrder);
        if (r === undefined) return undefined;
        wake(r.order.accountId);
        return { order: r.order, execution: toExecution(r.execution) };
      }
      const pgClaim = claims.pgClaim;
      if (pgClaim !== undefined && claims.fits(t)) {
        // A capped key's claim: its keys' rows locked and their sums checked first, then the statement in the
        // same transaction, so it reads those sums' rows only after the locks (its snapshot is its own).
        const r =
          reservation === null
            ? await pgClaim(t, execution, now)
            : await db.transaction().execute(async (trx) => {
                const keyIds = await reserveSpend(trx, reservation);
                return pgClaim(t, execution, now, {
                  trx,
                  keyIds,
                  lamports: reservation.lamports,
                  atMs: reservation.nowMs,
                });
              });
        if (r === undefined) return undefined;
        const order = toOrder(r.order);
        wake(order.accountId);
        return { order, execution: toExecution(r.execution) };
      }
      const row = await db.transaction().execute(async (trx) => {
        const claimed = claims.fits(t)
          ? await claimFast(trx, t, now)
          : await applyTransition(trx, dialect, claims.events, t, now);
        // Lost (another process claimed it, or it changed): the execution is not written either.
        if (claimed === undefined) return undefined;
        const recorded =
          reservation === null
            ? toExecution(
                await claims.insertExecution(trx, execution, execution.createdAt ?? isoNoZone(clock())),
              )
            : await reserveAndInsert(trx, dialect, clock, execution, reservation);
        return { order: claimed, execution: recorded };
      });
      if (row !== undefined) wake(row.order.accountId);
      return row;
    },

    async reclaimOrders(owner, nowMs, leaseUntilMs, limit) {
      const stale = await db
        .selectFrom("orders")
        .select(["id", "lease_owner", "lease_until_ms"])
        .where("state", "=", "triggered")
        .where((eb) => eb.or([eb("lease_until_ms", "is", null), eb("lease_until_ms", "<", nowMs)]))
        .limit(limit)
        .execute();
      const out: OrderRecord[] = [];
      for (const s of stale) {
        // Conditional on the lease seen: two processes reclaiming at once take each order once.
        let q = db
          .updateTable("orders")
          .set({ lease_owner: owner, lease_until_ms: leaseUntilMs })
          .where("id", "=", s.id)
          .where("state", "=", "triggered");
        q =
          s.lease_until_ms === null
            ? q.where("lease_until_ms", "is", null)
            : q.where("lease_until_ms", "=", s.lease_until_ms);
        const r = await q.returningAll().executeTakeFirst();
        if (r !== undefined) out.push(toOrder(r));
      }
      return out;
    },

    async renewOrderLease(id, owner, leaseUntilMs) {
      const r = await db
        .updateTable("orders")
        .set({ lease_until_ms: leaseUntilMs })
        .where("id", "=", id)
        .where("state", "=", "triggered")
        .where("lease_owner", "=", owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async setOrderPeak(id, peak) {
      await db.updateTable("orders").set({ peak }).where("id", "=", id).where("state", "=", "open").execute();
    },

    async findExecutionIdByKey(accountId, key) {
      return executionIdByKey(db, accountId, key);
    },
  };
}

/** Adds `executionId` to the order's executions (once), inside the caller's transaction. */
export async function appendOrderExecution(
  trx: Kysely<Database>,
  orderId: string,
  executionId: string,
): Promise<void> {
  const row = await trx
    .selectFrom("orders")
    .select("execution_ids")
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (row === undefined) return;
  const ids = JSON.parse(row.execution_ids) as string[];
  if (ids.includes(executionId)) return;
  await trx
    .updateTable("orders")
    .set({ execution_ids: JSON.stringify([...ids, executionId]) })
    .where("id", "=", orderId)
    .execute();
}
