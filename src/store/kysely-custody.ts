/** The custody half of the Kysely store (both engines): keys, spend reservations, the activity log. */
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from "kysely";
import {
  KeyLimitError,
  SpendCapExceededError,
  type ActivityRecord,
  type CustodyStore,
  type KeyRecord,
} from "./custody-types.js";
import { kyselyExecutions } from "./kysely-executions.js";
import { compiledOnce } from "./compiled-once.js";
import type { ActivityLogTable, ApiKeysTable, Database } from "./schema.js";
import type { QueryRunner } from "./query-runner.js";

/** The activity row's columns (all of them but the generated id), in the order of its insert. */
const ACTIVITY_COLUMNS = [
  "account_id",
  "at",
  "key_id",
  "key_name",
  "method",
  "route",
  "wallets",
  "execution_id",
  "status",
  "rule",
  "ip",
  "target_key_id",
] as const;
type ActivityValues = { [K in (typeof ACTIVITY_COLUMNS)[number]]: Insertable<ActivityLogTable>[K] };

const json = (v: string | null): unknown => (v === null ? null : (JSON.parse(v) as unknown));

function toKey(r: Selectable<ApiKeysTable>, accountFrozen: number | null): KeyRecord {
  const root = r.account_id === null;
  return {
    id: Number(r.id),
    accountId: root ? Number(r.id) : Number(r.account_id),
    root,
    name: r.name ?? (root ? "root" : `key-${r.id}`),
    scopes: json(r.scopes) as string[] | null,
    wallets: json(r.wallets) as string[] | null,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    frozen: Number(r.frozen ?? 0) === 1,
    accountFrozen: Number(accountFrozen ?? 0) === 1,
    policy: json(r.policy) as Record<string, unknown> | null,
    createdAt: r.created_at,
  };
}

function toActivity(r: Selectable<ActivityLogTable>): ActivityRecord {
  return {
    id: Number(r.id),
    accountId: Number(r.account_id),
    at: r.at,
    keyId: Number(r.key_id),
    keyName: r.key_name,
    method: r.method,
    route: r.route,
    wallets: json(r.wallets) as string[],
    executionId: r.execution_id,
    status: Number(r.status),
    rule: r.rule,
    ip: r.ip,
    targetKeyId: r.target_key_id === null ? null : Number(r.target_key_id),
  };
}

/**
 * Lamports of `keyId`'s reservations since `sinceMs` that still count. A reservation is released, without any
 * write, when its execution certainly sent nothing: `expired` (never landed), or `failed` before landing
 * (no confirmation status). An execution that is gone (its wallet deleted) keeps counting.
 */
async function counted(conn: Kysely<Database>, keyId: number, sinceMs: number): Promise<bigint> {
  const row = await conn
    .selectFrom("spend_reservations as r")
    .leftJoin("executions as e", "e.id", "r.execution_id")
    .select(sql<string | number | null>`sum(r.lamports)`.as("total"))
    .where("r.key_id", "=", keyId)
    .where("r.at_ms", ">", sinceMs)
    .where(({ eb, or, and, not }) =>
      not(
        or([
          eb("e.status", "=", "expired"),
          and([eb("e.status", "=", "failed"), eb("e.confirmation_status", "is", null)]),
        ]),
      ),
    )
    .executeTakeFirst();
  const total = row?.total ?? null;
  return total === null ? 0n : BigInt(String(total).split(".")[0] ?? "0");
}

/** The custody methods over an open Kysely instance. */
export function kyselyCustody(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  /** Runs the activity insert (SQLite's group commit); default Kysely's driver. */
  syncedWrites?: QueryRunner,
  /** Runs the key lookup (PostgreSQL: a named statement); default Kysely's driver. */
  prepared?: QueryRunner,
): CustodyStore {
  // Keys joined with their root row's account freeze flag (a root key joins itself).
  const keys = (conn: Kysely<Database>) =>
    conn
      .selectFrom("api_keys as k")
      .leftJoin("api_keys as a", (j) => j.on(sql`a.id`, "=", sql`coalesce(k.account_id, k.id)`))
      .selectAll("k")
      .select("a.account_frozen as root_account_frozen");

  // Every authenticated request looks its key up and most write an activity row: compiled once.
  const keyByHash = compiledOnce(
    db,
    ["keyHash"],
    (a: { keyHash: string }) => keys(db).where("k.key_hash", "=", a.keyHash),
    prepared,
  );
  const activityInsert = compiledOnce(
    db,
    ACTIVITY_COLUMNS,
    (row: ActivityValues) => db.insertInto("activity_log").values(row),
    syncedWrites,
  );

  return {
    async findKeyByHash(keyHash) {
      const r = (await keyByHash({ keyHash }))[0];
      return r === undefined ? undefined : toKey(r, r.root_account_frozen);
    },

    async findKey(accountId, keyId) {
      const r = await keys(db)
        .where("k.id", "=", keyId)
        .where(sql<number>`coalesce(k.account_id, k.id)`, "=", accountId)
        .executeTakeFirst();
      return r === undefined ? undefined : toKey(r, r.root_account_frozen);
    },

    async listKeys(accountId) {
      const rows = await keys(db)
        .where(sql<number>`coalesce(k.account_id, k.id)`, "=", accountId)
        .where("k.revoked_at", "is", null)
        .orderBy("k.id", "asc")
        .execute();
      return rows.map((r) => toKey(r, r.root_account_frozen));
    },

    async insertSubKey(k, maxKeys) {
      return db.transaction().execute(async (trx) => {
        // A write on the account's root row first: on PostgreSQL a row lock held to commit, on SQLite the
        // database's write lock. Two creations on one account therefore count one after the other.
        await trx
          .updateTable("api_keys")
          .set({ key_hash: sql`key_hash` })
          .where("id", "=", k.accountId)
          .execute();
        if (maxKeys !== undefined) {
          const row = await trx
            .selectFrom("api_keys")
            .select(sql<string | number>`count(*)`.as("n"))
            .where("account_id", "=", k.accountId)
            .where("revoked_at", "is", null)
            .executeTakeFirst();
          if (Number(row?.n ?? 0) >= maxKeys) throw new KeyLimitError(maxKeys);
        }
        const row = await trx
          .insertInto("api_keys")
          .values({
            key_hash: k.keyHash,
            created_at: k.createdAt,
            account_id: k.accountId,
            name: k.name,
            scopes: JSON.stringify(k.scopes),
            wallets: k.wallets === null ? null : JSON.stringify(k.wallets),
            expires_at: k.expiresAt,
            frozen: 0,
            policy: k.policy === null ? null : JSON.stringify(k.policy),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toKey(row, 0);
      });
    },

    async updateKey(accountId, keyId, patch) {
      const set: Updateable<ApiKeysTable> = {};
      if (patch.revokedAt !== undefined) set.revoked_at = patch.revokedAt;
      if (patch.frozen !== undefined) set.frozen = patch.frozen ? 1 : 0;
      if (patch.policy !== undefined)
        set.policy = patch.policy === null ? null : JSON.stringify(patch.policy);
      const r = await db
        .updateTable("api_keys")
        .set(set)
        .where("id", "=", keyId)
        .where(sql<number>`coalesce(account_id, id)`, "=", accountId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async setAccountFrozen(accountId, frozen) {
      await db
        .updateTable("api_keys")
        .set({ account_frozen: frozen ? 1 : 0 })
        .where("id", "=", accountId)
        .execute();
    },

    async spentLamports(keyId, sinceMs) {
      return counted(db, keyId, sinceMs);
    },

    async insertExecutionReserving(execution, res) {
      return db.transaction().execute(async (trx) => {
        // A write on the key's row first: on PostgreSQL a row lock held to commit, on SQLite the database's
        // write lock. Every reservation of one key therefore reads the sum only after the previous one committed.
        await trx
          .updateTable("api_keys")
          .set({ key_hash: sql`key_hash` })
          .where("id", "=", res.keyId)
          .execute();
        const used = await counted(trx, res.keyId, res.sinceMs);
        if (used + res.lamports > res.capLamports) {
          throw new SpendCapExceededError(used, res.capLamports, res.lamports);
        }
        const record = await kyselyExecutions(trx, dialect, clock).insertExecution(execution);
        await trx
          .insertInto("spend_reservations")
          .values({
            key_id: res.keyId,
            execution_id: execution.id,
            lamports: res.lamports.toString(),
            at_ms: res.nowMs,
          })
          .execute();
        return record;
      });
    },

    async insertActivity(a) {
      await activityInsert({
        account_id: a.accountId,
        at: a.at,
        key_id: a.keyId,
        key_name: a.keyName,
        method: a.method,
        route: a.route,
        wallets: JSON.stringify(a.wallets),
        execution_id: a.executionId,
        status: a.status,
        rule: a.rule,
        ip: a.ip,
        target_key_id: a.targetKeyId ?? null,
      });
    },

    async listActivity(q) {
      let query = db.selectFrom("activity_log").selectAll().where("account_id", "=", q.accountId);
      if (q.beforeId !== undefined) query = query.where("id", "<", q.beforeId);
      if (q.keyId !== undefined) query = query.where("key_id", "=", q.keyId);
      if (q.route !== undefined) query = query.where("route", "=", q.route);
      if (q.status !== undefined) query = query.where("status", "=", q.status);
      if (q.rule !== undefined) query = query.where("rule", "=", q.rule);
      if (q.targetKeyId !== undefined) query = query.where("target_key_id", "=", q.targetKeyId);
      const rows = await query.orderBy("id", "desc").limit(q.limit).execute();
      return rows.map(toActivity);
    },
  };
}
