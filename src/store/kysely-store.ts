/** The Store on Kysely; one implementation serves SQLite and PostgreSQL. */
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { SqliteConnection } from "./engine/sqlite-statements.js";
import { kyselyCustody } from "./keys/kysely-custody.js";
import { kyselyPositions } from "./positions/kysely-positions.js";
import type { ExecutionWriter } from "./executions/execution-statements.js";
import type { QueryRunner } from "./engine/query-runner.js";
import { kyselyWebhooks } from "./webhooks/kysely-webhooks.js";
import { createWakeBus, kyselyEvents, wakingExecutionWrites, type WakeBus } from "./events/kysely-events.js";
import { isoNoZone, kyselyExecutions } from "./executions/kysely-executions.js";
import { kyselyIdempotency } from "./idempotency/kysely-idempotency.js";
import { keyRows, ofKey, oldestIdOfKey } from "./keys/key-rows.js";
import { kyselyRateCounters } from "./budgets/kysely-rate-counters.js";
import { kyselyOrders } from "./orders/kysely-orders.js";
import { kyselyOrderFires } from "./orders/kysely-order-fires.js";
import { kyselyOutsideBuilds } from "./outside/kysely-outside-builds.js";
import { kyselyCopyFires } from "./orders/kysely-copy-fires.js";
import { claimContext } from "./orders/fire-claims.js";
import type { ApiKeysTable, Database, WalletsTable } from "./schema.js";
import { compiledOnce } from "./engine/compiled-once.js";
import {
  DuplicateWalletError,
  WalletLimitError,
  type ApiKeyRecord,
  type NewWallet,
  type Store,
  type WalletRecord,
} from "./types.js";

function toApiKey(r: Selectable<ApiKeysTable>): ApiKeyRecord {
  return { id: Number(r.id), keyHash: r.key_hash, createdAt: r.created_at };
}

function toWallet(r: Selectable<WalletsTable>): WalletRecord {
  return {
    // Ids written out, not spread from a helper (key-rows.ts says why).
    id: Number(r.id),
    apiKeyId: Number(r.api_key_id),
    seq: Number(r.key_seq),
    publicKey: r.public_key,
    status: "active",
    isDefault: Number(r.is_default) === 1,
    createdAt: r.created_at,
    ciphertext: r.ciphertext,
    nonce: r.nonce,
    tag: r.tag,
    keyId: r.key_id,
  };
}

/** Options of the events part of the store (issue 20). */
export interface StoreEventOptions {
  /**
   * Listens to other processes' events (PostgreSQL LISTEN) into the bus, and their key-change hints into
   * `keysBus` (issue 29); returns its stop function.
   */
  listen?: (bus: WakeBus, keysBus: WakeBus) => () => Promise<void>;
  /** Tells other processes that an account's keys changed (Redis); unset: PostgreSQL NOTIFY, or none (SQLite). */
  publishKeys?: (accountId: number) => void;
  /**
   * Tells other processes about this process's execution writes (Redis pub/sub); unset when the database does
   * it itself (the PostgreSQL trigger's NOTIFY) or there is no other process (SQLite).
   */
  publish?: (apiKeyId: number | undefined) => void;
}

/** Builds a Store over an open, migrated Kysely instance; `destroy` closes the pool/file. */
export function kyselyStore(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date = () => new Date(),
  eventOptions: StoreEventOptions = {},
  /** Prepared-statement insert/update of executions (the request path); default: Kysely. */
  executionWriter?: ExecutionWriter,
  /** Runs the request path's other synced write (the activity row): SQLite's group commit; default Kysely. */
  syncedWrites?: QueryRunner,
  /** Runs the request path's compiled-once reads (PostgreSQL: named statements, pg-prepared.ts); default Kysely. */
  prepared?: QueryRunner,
  /** SQLite: the connection under `db`, for an order fire's claim commit (kysely-orders.ts). */
  sqlite?: SqliteConnection,
): Store {
  let rateLimitCalls = 0;
  // Issue 20: wake-ups of event readers; the events themselves are written by triggers (migrations-events.ts).
  const bus = createWakeBus();
  let stopListening: (() => Promise<void>) | undefined;
  const listen = eventOptions.listen;
  const publish = eventOptions.publish;
  // This process's own writes: wake local readers, and tell the other processes when a publisher is set.
  const writesBus: WakeBus =
    publish === undefined
      ? bus
      : {
          on: (l) => bus.on(l),
          emit(apiKeyId) {
            bus.emit(apiKeyId);
            publish(apiKeyId);
          },
        };
  const keysBus = createWakeBus();
  const events = kyselyEvents(
    db,
    dialect,
    bus,
    listen === undefined ? undefined : () => (stopListening = listen(bus, keysBus)),
    {
      bus: keysBus,
      ...(eventOptions.publishKeys !== undefined ? { publish: eventOptions.publishKeys } : {}),
    },
  );

  /**
   * Serializes every default-flag change of one key. PostgreSQL: a row lock on the key. SQLite: Kysely runs
   * one transaction at a time on its single connection, which already serializes them.
   */
  async function lockKey(trx: Transaction<Database>, apiKeyId: number): Promise<boolean> {
    const q = trx.selectFrom("api_keys").select("id").where("id", "=", apiKeyId);
    const row = dialect === "postgres" ? await q.forUpdate().executeTakeFirst() : await q.executeTakeFirst();
    return row !== undefined;
  }

  // Called under lockKey, so the key never has two default wallets.
  async function clearDefault(trx: Transaction<Database>, apiKeyId: number): Promise<void> {
    await trx
      .updateTable("wallets")
      .set({ is_default: 0 })
      .where("api_key_id", "=", apiKeyId)
      .where("is_default", "=", 1)
      .execute();
  }

  // One key's wallet by public key. Every trade naming its wallet looks it up: compiled once. Inside a
  // transaction pass `trx` so the read sees the key's lock.
  const walletOfKey = compiledOnce(
    db,
    ["apiKeyId", "publicKey"],
    (a: { apiKeyId: number; publicKey: string }) =>
      ofKey(db.selectFrom("wallets").selectAll(), a.apiKeyId).where("public_key", "=", a.publicKey),
    prepared,
  );
  // A key's default wallet: every trade that names no wallet reads it, so it is compiled once like the above.
  const defaultWalletOfKey = compiledOnce(
    db,
    ["apiKeyId"],
    (a: { apiKeyId: number }) =>
      ofKey(db.selectFrom("wallets").selectAll(), a.apiKeyId).where("is_default", "=", 1),
    prepared,
  );

  async function insertWallet(
    trx: Transaction<Database>,
    apiKeyId: number,
    w: NewWallet,
    isDefault: boolean,
  ): Promise<WalletRecord> {
    // Called under the key's lock (or in the key's creating transaction): numbers are never handed out twice.
    const seq = await trx
      .updateTable("api_keys")
      .set((eb) => ({ wallet_seq: eb("wallet_seq", "+", 1) }))
      .where("id", "=", apiKeyId)
      .returning("wallet_seq")
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto("wallets")
      .values({
        key_seq: Number(seq.wallet_seq),
        api_key_id: apiKeyId,
        public_key: w.publicKey,
        status: "active",
        is_default: isDefault ? 1 : 0,
        ciphertext: w.ciphertext,
        nonce: w.nonce,
        tag: w.tag,
        key_id: w.keyId,
        created_at: w.createdAt,
        added_by_key_id: w.origin?.keyId ?? null,
        vouched: w.origin === undefined || w.origin.vouched ? 1 : 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWallet(row);
  }

  // An account whose outbox grew (after commit): its event readers are woken.
  const wakeAccount = (accountId: number) => writesBus.emit(accountId);
  // One claim context (its statements compiled once) for the snipe and copy claims.
  const fireClaims = claimContext(db, dialect, clock, wakeAccount, sqlite);
  const store: Store = {
    dialect,
    ...wakingExecutionWrites(kyselyExecutions(db, dialect, clock, executionWriter), writesBus),
    ...events,
    ...kyselyWebhooks(db, dialect, prepared),
    ...kyselyIdempotency(db),
    ...kyselyCustody(db, dialect, clock, syncedWrites, prepared),
    ...kyselyRateCounters(db),
    ...kyselyPositions(db, dialect, clock),
    ...kyselyOrders(db, dialect, clock, wakeAccount, sqlite, prepared),
    ...kyselyOrderFires(fireClaims),
    ...kyselyOutsideBuilds(db, dialect, syncedWrites),
    ...kyselyCopyFires(fireClaims),

    async createApiKeyWithWallet(keyHash, wallet) {
      return db.transaction().execute(async (trx) => {
        const key = await trx
          .insertInto("api_keys")
          .values({ key_hash: keyHash, created_at: wallet.createdAt })
          .returningAll()
          .executeTakeFirstOrThrow();
        const apiKey = toApiKey(key);
        return { apiKey, wallet: await insertWallet(trx, apiKey.id, wallet, true) };
      });
    },

    async findApiKeyByHash(keyHash) {
      const r = await db
        .selectFrom("api_keys")
        .selectAll()
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return r === undefined ? undefined : toApiKey(r);
    },

    async addWallet(apiKeyId, wallet, makeDefault, maxWallets) {
      return db.transaction().execute(async (trx) => {
        if (!(await lockKey(trx, apiKeyId))) throw new Error(`api key ${apiKeyId} does not exist`);
        const existing = await ofKey(
          trx.selectFrom("wallets").select(["public_key", "is_default"]),
          apiKeyId,
        ).execute();
        if (existing.some((w) => w.public_key === wallet.publicKey)) throw new DuplicateWalletError();
        if (maxWallets !== undefined && existing.length >= maxWallets) throw new WalletLimitError(maxWallets);
        const becomesDefault = makeDefault || !existing.some((w) => Number(w.is_default) === 1);
        if (becomesDefault) {
          await clearDefault(trx, apiKeyId);
        }
        return insertWallet(trx, apiKeyId, wallet, becomesDefault);
      });
    },

    async listWallets(apiKeyId) {
      const rows = await keyRows(db.selectFrom("wallets").selectAll(), apiKeyId).execute();
      return rows.map(toWallet);
    },

    async findWallet(apiKeyId, publicKey) {
      const r = (await walletOfKey({ apiKeyId, publicKey }))[0];
      return r === undefined ? undefined : toWallet(r);
    },

    async findDefaultWallet(apiKeyId) {
      const r = (await defaultWalletOfKey({ apiKeyId }))[0];
      return r === undefined ? undefined : toWallet(r);
    },

    async setDefaultWallet(apiKeyId, publicKey) {
      return db.transaction().execute(async (trx) => {
        if (!(await lockKey(trx, apiKeyId))) return undefined;
        const target = (await walletOfKey({ apiKeyId, publicKey }, trx))[0];
        if (target === undefined) return undefined;
        if (Number(target.is_default) === 1) return toWallet(target);
        await clearDefault(trx, apiKeyId);
        const row = await trx
          .updateTable("wallets")
          .set({ is_default: 1 })
          .where("id", "=", target.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toWallet(row);
      });
    },

    async deleteWallet(apiKeyId, publicKey) {
      return db.transaction().execute(async (trx) => {
        if (!(await lockKey(trx, apiKeyId))) return false;
        const target = (await walletOfKey({ apiKeyId, publicKey }, trx))[0];
        if (target === undefined) return false;
        // Soft delete: the history leaves the API but stays in the database, so a stolen key cannot erase its trail.
        await trx
          .updateTable("executions")
          .set({ delinked_at: isoNoZone(clock()) })
          .where("api_key_id", "=", apiKeyId)
          .where("wallet", "=", publicKey)
          .where("delinked_at", "is", null)
          .execute();
        await trx.deleteFrom("wallets").where("id", "=", target.id).execute();
        if (Number(target.is_default) === 1) {
          const oldest = await oldestIdOfKey(trx, "wallets", apiKeyId);
          if (oldest !== undefined) {
            await trx.updateTable("wallets").set({ is_default: 1 }).where("id", "=", oldest).execute();
          }
        }
        return true;
      });
    },

    async anyWallet() {
      const r = await db.selectFrom("wallets").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
      return r === undefined ? undefined : toWallet(r);
    },

    async walletKeyIdCounts() {
      const rows = await db
        .selectFrom("wallets")
        .select(["key_id", (eb) => eb.fn.countAll<number | string | bigint>().as("n")])
        .groupBy("key_id")
        .orderBy("key_id", "asc")
        .execute();
      // PostgreSQL returns count(*) as a string (bigint); SQLite as a number.
      return rows.map((r) => ({ keyId: r.key_id, count: Number(r.n) }));
    },

    async listWalletsNotUnderKey(keyId, afterId, limit) {
      const rows = await db
        .selectFrom("wallets")
        .selectAll()
        .where("key_id", "<>", keyId)
        .where("id", ">", afterId)
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
      return rows.map(toWallet);
    },

    async replaceWalletSecret(id, expected, next) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable("wallets")
          .set({ ciphertext: next.ciphertext, nonce: next.nonce, tag: next.tag, key_id: next.keyId })
          .where("id", "=", id)
          .where("key_id", "=", expected.keyId)
          .where("nonce", "=", expected.nonce)
          .where("ciphertext", "=", expected.ciphertext)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      });
    },

    async hitRateLimit(key, nowMs, windowMs) {
      const row = await db
        .insertInto("rate_limit_hits")
        .values({ key, hit_at_ms: nowMs })
        .onConflict((oc) =>
          oc
            .column("key")
            .doUpdateSet({ hit_at_ms: nowMs })
            .where(sql<number>`rate_limit_hits.hit_at_ms`, "<=", nowMs - windowMs),
        )
        .returning("key")
        .executeTakeFirst();
      // Expired rows are harmless (an old hit allows the next one); sweep them now and then to bound the table.
      rateLimitCalls += 1;
      if (rateLimitCalls % 256 === 0) {
        await db
          .deleteFrom("rate_limit_hits")
          .where("hit_at_ms", "<", nowMs - 10 * windowMs)
          .execute();
      }
      return row !== undefined;
    },

    async ping() {
      await sql`select 1`.execute(db);
    },

    async close() {
      if (stopListening !== undefined) await stopListening();
      await db.destroy();
    },
  };
  return store;
}
