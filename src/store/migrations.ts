/** The one migration set of both engines, kept in code so the service needs no migration files at run time. */
import { sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { eventMigrations } from "./events/migrations-events.js";
import { custodyMigrations } from "./keys/custody-migrations.js";
import { walletOriginMigrations } from "./wallets/wallet-origin-migrations.js";
import { budgetMigrations } from "./budgets/budget-migrations.js";
import { positionMigrations } from "./positions/positions-migrations.js";
import { orderMigrations } from "./orders/orders-migrations.js";
import { outsideBuildMigrations } from "./outside/outside-build-migrations.js";
import { keyVersionMigrations } from "./keys/key-version-migrations.js";

/** Builds the provider; the dialect only changes the auto-increment column type. */
export function migrationProvider(dialect: "sqlite" | "postgres"): MigrationProvider {
  const serialId = dialect === "postgres" ? "serial" : "integer";
  const migrations: Record<string, Migration> = {
    "0001_initial": {
      // Kysely<unknown> is the documented type for migrations: they must not depend on the current schema.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("api_keys")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("key_hash", "text", (c) => c.notNull().unique())
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("wallets")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("public_key", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("ciphertext", "text", (c) => c.notNull())
          .addColumn("nonce", "text", (c) => c.notNull())
          .addColumn("tag", "text", (c) => c.notNull())
          .addColumn("key_id", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addUniqueConstraint("wallets_key_public_key", ["api_key_id", "public_key"])
          .execute();
        // The database itself refuses a second default wallet for one key.
        await sql`create unique index wallets_one_default on wallets (api_key_id) where is_default = 1`.execute(
          db,
        );
        await db.schema
          .createTable("executions")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("wallets", "text", (c) => c.notNull())
          .addColumn("signatures", "text", (c) => c.notNull())
          .addColumn("bundle_id", "text")
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("confirmation_status", "text")
          .addColumn("request", "text", (c) => c.notNull())
          .addColumn("response", "text")
          .addColumn("error", "text")
          .addColumn("timings", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("executions_key_created")
          .on("executions")
          .columns(["api_key_id", "created_at"])
          .execute();
        await db.schema
          .createIndex("executions_key_wallet")
          .on("executions")
          .columns(["api_key_id", "wallet"])
          .execute();
        await db.schema
          .createTable("rate_limit_hits")
          .addColumn("key", "text", (c) => c.primaryKey())
          .addColumn("hit_at_ms", "bigint", (c) => c.notNull())
          .execute();
      },
    },
    "0002_idempotency_and_reconcile": {
      async up(db: Kysely<unknown>) {
        // When the transaction's blockhash stops being valid (null for rows written before this migration),
        // the idempotency key a request carried, and the reconciliation lease (one process per record at a time).
        await db.schema.alterTable("executions").addColumn("last_valid_block_height", "bigint").execute();
        await db.schema.alterTable("executions").addColumn("idempotency_key", "text").execute();
        await db.schema.alterTable("executions").addColumn("reconcile_owner", "text").execute();
        await db.schema.alterTable("executions").addColumn("reconcile_until_ms", "bigint").execute();
        await sql`create index executions_open on executions (updated_at) where status in ('pending', 'submitted', 'timeout')`.execute(
          db,
        );
        await sql`create index executions_idempotency on executions (api_key_id, idempotency_key) where idempotency_key is not null`.execute(
          db,
        );
        await db.schema
          .createTable("idempotency_keys")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("fingerprint", "text", (c) => c.notNull())
          .addColumn("owner", "text", (c) => c.notNull())
          .addColumn("locked_until_ms", "bigint", (c) => c.notNull())
          .addColumn("response_status", "integer")
          .addColumn("response_type", "text")
          .addColumn("response_body", "text")
          .addColumn("created_at_ms", "bigint", (c) => c.notNull())
          .addUniqueConstraint("idempotency_keys_key", ["api_key_id", "key"])
          .execute();
        await db.schema
          .createIndex("idempotency_keys_created")
          .on("idempotency_keys")
          .column("created_at_ms")
          .execute();
      },
    },
    "0003_execution_cu_price": {
      async up(db: Kysely<unknown>) {
        // The compute-unit price (micro-lamports per CU) the execution's transaction(s) carried; null for
        // records written before this migration. A u64: SQLite keeps it as text, since its driver reads
        // integers as JS numbers (exact only to 2^53); PostgreSQL's bigint comes back as a string anyway.
        await db.schema
          .alterTable("executions")
          .addColumn("compute_unit_price_micro_lamports", dialect === "sqlite" ? "text" : "bigint")
          .execute();
      },
    },
    // Issue 20: the execution events outbox (and webhooks), in their own file.
    ...eventMigrations(dialect),
    // Issue 19 (custody): sub-keys, policies, freeze, spend reservations, append-only activity log.
    ...custodyMigrations(dialect),
    // Issue 29: which key added a wallet, and whether it counts as the account's own for destination rules.
    ...walletOriginMigrations(),
    // Issue 23 (hardening): request counters, per-key wallet numbers, soft delete of a delinked wallet's history.
    "2026_11_24_hardening": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("rate_counters")
          .addColumn("key", "text", (c) => c.primaryKey())
          .addColumn("window_start_ms", "bigint", (c) => c.notNull())
          .addColumn("count", "integer", (c) => c.notNull())
          .execute();
        await db.schema
          .alterTable("api_keys")
          .addColumn("wallet_seq", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable("wallets")
          .addColumn("key_seq", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`update wallets set key_seq = (select count(*) from wallets w2 where w2.api_key_id = wallets.api_key_id and w2.id <= wallets.id)`.execute(
          db,
        );
        await sql`update api_keys set wallet_seq = coalesce((select max(key_seq) from wallets where wallets.api_key_id = api_keys.id), 0)`.execute(
          db,
        );
        await db.schema.alterTable("executions").addColumn("delinked_at", "text").execute();
      },
    },
    // Issue 29 (budgets): refusal counts on activity rows, Idempotency-Key records per key.
    ...budgetMigrations(dialect),
    // Issue 33: the positions ledger and the events' own payload column.
    ...positionMigrations(),
    // Issue 31: orders (limit, take-profit, stop-loss, trailing stop, bracket).
    ...orderMigrations(),
    // Issue 32: transactions built for outside wallets, shared by every process on the database.
    ...outsideBuildMigrations(),
    ...keyVersionMigrations(dialect),
  };
  return { getMigrations: async () => migrations };
}
