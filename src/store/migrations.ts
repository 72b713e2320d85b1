/** The one migration set of both engines, kept in code so the service needs no migration files at run time. */
import { sql, type Kysely, type Migration, type MigrationProvider } from "kysely";

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
  };
  return { getMigrations: async () => migrations };
}
