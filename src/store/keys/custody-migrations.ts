/** Issue 19's migrations (sub-keys, policies, freeze, spend reservations, activity log), for both engines. */
import { sql, type Kysely, type Migration } from "kysely";

/** The custody migrations, keyed by name (appended after the others: names sort after `0003_…`). */
export function custodyMigrations(dialect: "sqlite" | "postgres"): Record<string, Migration> {
  const serialId = dialect === "postgres" ? "serial" : "integer";
  return {
    "2026_11_24_custody_keys": {
      async up(db: Kysely<unknown>) {
        // A root key (from setup) has account_id null: it is its own account, so every existing row stays a
        // root key with all scopes. A sub-key points at its root; wallets and executions stay on the root id.
        const add = (name: string, type: "text" | "integer" | "bigint") =>
          db.schema.alterTable("api_keys").addColumn(name, type).execute();
        await add("account_id", "integer");
        await add("name", "text");
        await add("scopes", "text"); // JSON array; null = every scope (root)
        await add("wallets", "text"); // JSON array; null = every wallet of the account
        await add("expires_at", "text");
        await add("revoked_at", "text");
        await add("frozen", "integer"); // 1 = this key is frozen
        await add("account_frozen", "integer"); // on the root row: 1 = every key of the account is frozen
        await add("policy", "text"); // JSON object; null = no policy
        await db.schema.createIndex("api_keys_account").on("api_keys").column("account_id").execute();
      },
    },
    "2026_11_24_custody_spend": {
      async up(db: Kysely<unknown>) {
        // One row per execution recorded through a key with a SOL cap, written in the execution's own
        // transaction. Whether it still counts is read from the execution's state (see kysely-custody.ts), so
        // a restart never loses a release.
        await db.schema
          .createTable("spend_reservations")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("key_id", "integer", (c) => c.notNull())
          .addColumn("execution_id", "text", (c) => c.notNull())
          .addColumn("lamports", "bigint", (c) => c.notNull())
          .addColumn("at_ms", "bigint", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("spend_reservations_key_at")
          .on("spend_reservations")
          .columns(["key_id", "at_ms"])
          .execute();
      },
    },
    "2026_11_24_custody_activity": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("activity_log")
          .addColumn("id", serialId, (c) =>
            dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
          )
          .addColumn("account_id", "integer", (c) => c.notNull())
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("key_id", "integer", (c) => c.notNull())
          .addColumn("key_name", "text", (c) => c.notNull())
          .addColumn("method", "text", (c) => c.notNull())
          .addColumn("route", "text", (c) => c.notNull())
          .addColumn("wallets", "text", (c) => c.notNull())
          .addColumn("execution_id", "text")
          .addColumn("status", "integer", (c) => c.notNull())
          .addColumn("rule", "text")
          .addColumn("ip", "text")
          .execute();
        await db.schema
          .createIndex("activity_log_account_id")
          .on("activity_log")
          .columns(["account_id", "id"])
          .execute();
        // Append-only: the database itself refuses to change or remove a row, whatever the caller.
        if (dialect === "postgres") {
          await sql`create or replace function activity_log_append_only() returns trigger language plpgsql as $$
            begin raise exception 'activity_log is append-only'; end $$`.execute(db);
          await sql`create trigger activity_log_no_update before update or delete on activity_log
            for each row execute function activity_log_append_only()`.execute(db);
        } else {
          await sql`create trigger activity_log_no_update before update on activity_log
            begin select raise(abort, 'activity_log is append-only'); end`.execute(db);
          await sql`create trigger activity_log_no_delete before delete on activity_log
            begin select raise(abort, 'activity_log is append-only'); end`.execute(db);
        }
      },
    },
    // Issue 29 (key chains): the key that created each sub-key. Null: the root key (every row written before
    // this migration, and every key the root key makes), so a chain walk stops there without a query.
    "2026_11_28_key_created_by": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("api_keys").addColumn("created_by_key_id", "integer").execute();
        await db.schema
          .createIndex("api_keys_created_by")
          .on("api_keys")
          .column("created_by_key_id")
          .execute();
      },
    },
    // Issue 29 finding 16: the gaps the row triggers above leave (a new migration: shipped ones never change).
    "2026_11_28_activity_append_only_gaps": {
      async up(db: Kysely<unknown>) {
        if (dialect === "postgres") {
          // Row triggers never see TRUNCATE; a statement trigger does (it also covers TRUNCATE ... CASCADE).
          await sql`create trigger activity_log_no_truncate before truncate on activity_log
            for each statement execute function activity_log_append_only()`.execute(db);
        } else {
          // REPLACE (and INSERT OR REPLACE) deletes the row it replaces without firing delete triggers (unless
          // a connection turned recursive_triggers on, which is per connection): refuse an insert whose id is
          // taken. Stored in the schema, so it holds for every connection and tool, not only the service's.
          await sql`create trigger activity_log_no_replace before insert on activity_log
            when exists (select 1 from activity_log where id = new.id)
            begin select raise(abort, 'activity_log is append-only'); end`.execute(db);
        }
      },
    },
    // Issue 30: which key a /v1/keys/:id request (freeze, unfreeze, revoke, policy) acted on. A nullable column
    // added to the append-only table: older rows read null, no row is rewritten.
    "2026_11_28_issue30_activity_target_key": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("activity_log").addColumn("target_key_id", "integer").execute();
      },
    },
  };
}
