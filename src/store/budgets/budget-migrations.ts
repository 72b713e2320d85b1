/**
 * Issue 29's migrations (budgets slice), for both engines: refusal rows of the activity log carry how many
 * refusals they stand for, and Idempotency-Key records are scoped to the key that sent them.
 */
import { sql, type Kysely, type Migration } from "kysely";

/** The budget-slice migrations, keyed by name (they sort after the hardening one). */
export function budgetMigrations(dialect: "sqlite" | "postgres"): Record<string, Migration> {
  const serialId = dialect === "postgres" ? "serial" : "integer";
  return {
    "2026_11_28_activity_refusals": {
      async up(db: Kysely<unknown>) {
        // A new column only: the append-only triggers stay as they are (no row is changed). Null on rows
        // written before it, read as 1.
        await db.schema.alterTable("activity_log").addColumn("refusals", "integer").execute();
      },
    },
    "2026_11_28_idempotency_per_key": {
      async up(db: Kysely<unknown>) {
        // The identity becomes (account, key that sent it, Idempotency-Key). SQLite cannot drop a table
        // constraint, so the table is rebuilt on both engines alike; existing records go to the root key
        // (whose id is the account's), the only key that could have used them before sub-keys existed
        // widely — a sub-key's earlier record then simply stops replaying to it.
        await db.schema
          .createTable("idempotency_keys_scoped")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("key_id", "integer", (c) => c.notNull())
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("fingerprint", "text", (c) => c.notNull())
          .addColumn("owner", "text", (c) => c.notNull())
          .addColumn("locked_until_ms", "bigint", (c) => c.notNull())
          .addColumn("response_status", "integer")
          .addColumn("response_type", "text")
          .addColumn("response_body", "text")
          .addColumn("created_at_ms", "bigint", (c) => c.notNull())
          .addUniqueConstraint("idempotency_keys_key_scoped", ["api_key_id", "key_id", "key"])
          .execute();
        await sql`insert into idempotency_keys_scoped (id, api_key_id, key_id, key, fingerprint, owner,
            locked_until_ms, response_status, response_type, response_body, created_at_ms)
          select id, api_key_id, api_key_id, key, fingerprint, owner, locked_until_ms, response_status,
            response_type, response_body, created_at_ms from idempotency_keys`.execute(db);
        await db.schema.dropTable("idempotency_keys").execute();
        await sql`alter table idempotency_keys_scoped rename to idempotency_keys`.execute(db);
        if (dialect === "postgres") {
          // The copied ids were written explicitly: the serial continues after them.
          await sql`select setval(pg_get_serial_sequence('idempotency_keys', 'id'),
            coalesce((select max(id) from idempotency_keys), 0) + 1, false)`.execute(db);
        }
        await db.schema
          .createIndex("idempotency_keys_created")
          .on("idempotency_keys")
          .column("created_at_ms")
          .execute();
      },
    },
  };
}
