/** The custody half of the Kysely store (both engines): keys, spend reservations, the activity log. */
import {
  sql,
  type Insertable,
  type Kysely,
  type Selectable,
  type Transaction,
  type Updateable,
} from "kysely";
import {
  KeyLimitError,
  SpendCapExceededError,
  type ActivityRecord,
  type CustodyStore,
  type KeyRecord,
  type SpendReservation,
} from "./custody-types.js";
import type { ExecutionRecord, NewExecution } from "../types.js";
import { kyselyExecutions } from "../executions/kysely-executions.js";
import { lockKeyRow } from "./key-row-lock.js";
import { compiledOnce } from "../engine/compiled-once.js";
import type { ActivityLogTable, ApiKeysTable, Database } from "../schema.js";
import type { QueryRunner } from "../engine/query-runner.js";

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
  "refusals",
  "target_key_id",
] as const;
type ActivityValues = { [K in (typeof ACTIVITY_COLUMNS)[number]]: Insertable<ActivityLogTable>[K] };

const json = (v: string | null): unknown => (v === null ? null : (JSON.parse(v) as unknown));

function toKey(
  r: Selectable<ApiKeysTable>,
  accountFrozen: number | null,
  /** The root row's version; null when not read with it (a key just written): -1, which no claim matches. */
  rootVersion: number | string | null,
): KeyRecord {
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
    createdBy: r.created_by_key_id === null ? null : Number(r.created_by_key_id),
    version: Number(r.version),
    rootVersion: rootVersion === null ? -1 : Number(rootVersion),
  };
}

// Deeper than any account can hold (MAX_KEYS_PER_ACCOUNT's maximum): the walk's guard, not a limit in practice.
const MAX_CHAIN = 100_000;

/**
 * Issue 29: the keys above `key` up to the root key, creator first, in one recursive query (none when the root
 * key created it). Kept to the key's account; a root row, should one be named, ends the walk.
 */
async function ancestorsOf(conn: Kysely<Database>, key: KeyRecord): Promise<KeyRecord[]> {
  if (key.createdBy === null) return [];
  const { rows } = await sql<Selectable<ApiKeysTable> & { depth: number }>`
    with recursive chain(id, depth) as (
      select cast(${key.createdBy} as integer), cast(1 as integer)
      union all
      select k.created_by_key_id, c.depth + 1 from api_keys k join chain c on k.id = c.id
      where k.created_by_key_id is not null and c.depth < cast(${MAX_CHAIN} as integer)
    )
    select k.*, c.depth from chain c join api_keys k on k.id = c.id
    where k.account_id = ${key.accountId}
    order by c.depth`.execute(conn);
  return rows.map((r) => toKey(r, key.accountFrozen ? 1 : 0, key.rootVersion));
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
    refusals: r.refusals === null ? 1 : Number(r.refusals),
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

/**
 * Inside `trx`: the keys `res` charges (the key's and each capped ancestor's 24 h caps), each key's row locked
 * first and its sum checked under its cap; throws SpendCapExceededError (nothing written once the caller rolls
 * back) over a cap. The caller writes the execution and one reservation row per key answered, in `trx`.
 */
export async function reserveSpend(trx: Transaction<Database>, res: SpendReservation): Promise<number[]> {
  // Issue 29: the key (when capped) and each capped ancestor, each under its own cap; one row each.
  const charges = [
    ...(res.capLamports === null ? [] : [{ keyId: res.keyId, capLamports: res.capLamports }]),
    ...(res.alsoCharge ?? []),
  ];
  // A write on each charged key's row first, in id order (no two transactions wait on each other): on
  // PostgreSQL row locks held to commit, on SQLite the database's write lock. Every reservation against
  // one key therefore reads its sum only after the previous one committed.
  for (const id of [...new Set(charges.map((c) => c.keyId))].sort((a, b) => a - b)) await lockKeyRow(trx, id);
  for (const c of charges) {
    const used = await counted(trx, c.keyId, res.sinceMs);
    if (used + res.lamports > c.capLamports)
      throw new SpendCapExceededError(used, c.capLamports, res.lamports, c.keyId);
  }
  return charges.map((c) => c.keyId);
}

/**
 * Inside `trx`: reserves `res` (reserveSpend) and inserts `execution` with its reservation rows; throws
 * SpendCapExceededError (nothing written once the caller rolls back) over a cap.
 */
export async function reserveAndInsert(
  trx: Transaction<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
  execution: NewExecution,
  res: SpendReservation,
): Promise<ExecutionRecord> {
  const keyIds = await reserveSpend(trx, res);
  const record = await kyselyExecutions(trx, dialect, clock).insertExecution(execution);
  if (keyIds.length > 0)
    await trx
      .insertInto("spend_reservations")
      .values(
        keyIds.map((keyId) => ({
          key_id: keyId,
          execution_id: execution.id,
          lamports: res.lamports.toString(),
          at_ms: res.nowMs,
        })),
      )
      .execute();
  return record;
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
      .select(["a.account_frozen as root_account_frozen", "a.version as root_version"]);

  // Every authenticated request looks its key up and most write an activity row: compiled once.
  const keyByHash = compiledOnce(
    db,
    ["keyHash"],
    (a: { keyHash: string }) => keys(db).where("k.key_hash", "=", a.keyHash),
    prepared,
  );
  // Issue 29: every execution re-reads its key right before signing (the freeze re-check): compiled once too.
  const keyById = compiledOnce(
    db,
    ["accountId", "keyId"],
    (a: { accountId: number; keyId: number }) =>
      keys(db)
        .where("k.id", "=", a.keyId)
        .where(sql<number>`coalesce(k.account_id, k.id)`, "=", a.accountId),
    prepared,
  );
  const activityInsert = compiledOnce(
    db,
    ACTIVITY_COLUMNS,
    (row: ActivityValues) => db.insertInto("activity_log").values(row),
    syncedWrites,
  );

  const withAncestors = async (k: KeyRecord): Promise<KeyRecord> => {
    k.ancestors = await ancestorsOf(db, k);
    return k;
  };

  return {
    async findKeyByHash(keyHash) {
      const r = (await keyByHash({ keyHash }))[0];
      return r === undefined ? undefined : withAncestors(toKey(r, r.root_account_frozen, r.root_version));
    },

    async findKey(accountId, keyId) {
      const r = (await keyById({ accountId, keyId }))[0];
      return r === undefined ? undefined : withAncestors(toKey(r, r.root_account_frozen, r.root_version));
    },

    async listKeys(accountId) {
      const rows = await keys(db)
        .where(sql<number>`coalesce(k.account_id, k.id)`, "=", accountId)
        .where("k.revoked_at", "is", null)
        .orderBy("k.id", "asc")
        .execute();
      return rows.map((r) => toKey(r, r.root_account_frozen, r.root_version));
    },

    async insertSubKey(k, maxKeys) {
      return db.transaction().execute(async (trx) => {
        // Two creations on one account count one after the other.
        await lockKeyRow(trx, k.accountId);
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
            created_by_key_id: k.createdBy ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toKey(row, 0, null);
      });
    },

    async revokeKeyTree(accountId, keyId, revokedAt) {
      // One statement: a key created under the tree while it runs is either in it or made by a revoked key
      // (which authorize refuses through its ancestors anyway).
      const { rows } = await sql<{ id: number | string }>`
        with recursive tree(id) as (
          select id from api_keys
          where id = ${keyId} and account_id = ${accountId} and revoked_at is null
          union
          select k.id from api_keys k join tree t on k.created_by_key_id = t.id
          where k.account_id = ${accountId}
        )
        update api_keys set revoked_at = ${revokedAt}
        where id in (select id from tree) and revoked_at is null
        returning id`.execute(db);
      return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
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

    async listVouchedWallets(accountId) {
      const rows = await db
        .selectFrom("wallets")
        .select("public_key")
        .where("api_key_id", "=", accountId)
        .where("vouched", "=", 1)
        .execute();
      return rows.map((r) => r.public_key);
    },

    async spentLamports(keyId, sinceMs) {
      return counted(db, keyId, sinceMs);
    },

    async insertExecutionReserving(execution, res) {
      return db.transaction().execute((trx) => reserveAndInsert(trx, dialect, clock, execution, res));
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
        refusals: a.refusals ?? null,
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
