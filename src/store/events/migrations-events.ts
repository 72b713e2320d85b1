/**
 * Migrations of the execution events (issue 20): the outbox, its per-account sequence, and the triggers that
 * write an event in the same transaction as every status an execution record takes. Triggers, not store code,
 * so every writer (the request path, reconciliation, a future prepared statement) is covered by construction.
 */
import { sql, type Kysely, type Migration, type RawBuilder } from "kysely";

/** The PostgreSQL NOTIFY channel of new events (a wake-up only; the outbox is the source of truth). */
export const EVENTS_CHANNEL = "lasertrade_events";

/** Issue 29: the PostgreSQL NOTIFY channel of key changes (`<schema>:<account id>`); a hint to re-check streams. */
export const KEYS_CHANNEL = "lasertrade_keys";

/** The session setting that turns the events trigger's NOTIFY off (`off`; unset = on). */
export const EVENTS_NOTIFY_SETTING = "lasertrade.events_notify";

// PostgreSQL: one function for insert and status updates. The upsert on event_sequences locks the account's
// row until commit, so a second writer of the same account waits and ids become visible in order. The NOTIFY
// is sent at commit; its payload names the schema so deployments sharing a database ignore each other. Each
// migration that changes the NOTIFY keeps its own text (`notify`): a migration's SQL never changes once shipped.
const pgFunction = (notify: RawBuilder<unknown>) => sql`
create or replace function events_on_execution() returns trigger language plpgsql as $$
declare next_id bigint;
begin
  if tg_op = 'UPDATE' and new.status is not distinct from old.status then
    return new;
  end if;
  insert into event_sequences (api_key_id, last_id) values (new.api_key_id, 1)
    on conflict (api_key_id) do update set last_id = event_sequences.last_id + 1
    returning last_id into next_id;
  insert into events (api_key_id, id, type, execution_id, kind, wallet, wallets, signatures, status, error, created_at)
    values (new.api_key_id, next_id, 'execution.' || new.status, new.id, new.kind, new.wallet, new.wallets,
            new.signatures, new.status, new.error, new.updated_at);
  ${notify}
  return new;
end $$`;

const PG_FUNCTION = pgFunction(
  sql`perform pg_notify('${sql.raw(EVENTS_CHANNEL)}', current_schema() || ':' || new.api_key_id || ':' || next_id);`,
);

// The same function from migration 2026_11_26d_pg2_events_notify on (issue 18). The payload names the schema and
// the account, not the event id (no reader used it): PostgreSQL delivers a transaction's identical
// notifications once, so a group commit of n executions of one key sends one wake-up instead of n, and the
// listening connection, the notify queue and every woken reader handle one. A session with
// `lasertrade.events_notify` set to `off` sends none: the connections of a process whose wake-ups go through
// Redis (REDIS_URL, set on every process of a deployment or on none) set it.
const PG_FUNCTION_NOTIFY_ONCE =
  pgFunction(sql`if current_setting('${sql.raw(EVENTS_NOTIFY_SETTING)}', true) is distinct from 'off' then
    perform pg_notify('${sql.raw(EVENTS_CHANNEL)}', current_schema() || ':' || new.api_key_id);
  end if;`);

// SQLite writes one statement at a time, so read-increment-insert in the trigger is already atomic.
function sqliteTriggerBody(): string {
  return `
    insert or ignore into event_sequences (api_key_id, last_id) values (new.api_key_id, 0);
    update event_sequences set last_id = last_id + 1 where api_key_id = new.api_key_id;
    insert into events (api_key_id, id, type, execution_id, kind, wallet, wallets, signatures, status, error, created_at)
      select new.api_key_id, last_id, 'execution.' || new.status, new.id, new.kind, new.wallet, new.wallets,
             new.signatures, new.status, new.error, new.updated_at
      from event_sequences where api_key_id = new.api_key_id;`;
}

/** The events migrations, keyed by name (prefix `2026_11_24_events_`). */
export function eventMigrations(dialect: "sqlite" | "postgres"): Record<string, Migration> {
  return {
    "2026_11_24_events_outbox": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("event_sequences")
          .addColumn("api_key_id", "integer", (c) =>
            c.primaryKey().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("last_id", "bigint", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("events")
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("id", "bigint", (c) => c.notNull())
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("execution_id", "text", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("wallets", "text", (c) => c.notNull())
          .addColumn("signatures", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("error", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("events_pk", ["api_key_id", "id"])
          .execute();
        await db.schema.createIndex("events_created").on("events").column("created_at").execute();
        await db.schema
          .createIndex("events_execution")
          .on("events")
          .columns(["api_key_id", "execution_id"])
          .execute();
        if (dialect === "postgres") {
          await PG_FUNCTION.execute(db);
          await sql`create trigger executions_events after insert or update of status on executions
                    for each row execute function events_on_execution()`.execute(db);
        } else {
          await sql
            .raw(
              `create trigger executions_events_insert after insert on executions begin ${sqliteTriggerBody()} end`,
            )
            .execute(db);
          await sql
            .raw(
              `create trigger executions_events_update after update of status on executions
               when old.status is not new.status begin ${sqliteTriggerBody()} end`,
            )
            .execute(db);
        }
      },
    },
    "2026_11_26d_pg2_events_notify": {
      async up(db: Kysely<unknown>) {
        // SQLite has no NOTIFY: nothing to change there.
        if (dialect === "postgres") await PG_FUNCTION_NOTIFY_ONCE.execute(db);
      },
    },
    "2026_11_24_events_webhooks": {
      async up(db: Kysely<unknown>) {
        // A webhook endpoint: its signing secret encrypted by the vault (associated data: the webhook id),
        // and `cursor`, the last event id of the account already turned into deliveries.
        await db.schema
          .createTable("webhooks")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("types", "text", (c) => c.notNull())
          .addColumn("wallets", "text")
          .addColumn("secret_ciphertext", "text", (c) => c.notNull())
          .addColumn("secret_nonce", "text", (c) => c.notNull())
          .addColumn("secret_tag", "text", (c) => c.notNull())
          .addColumn("secret_key_id", "text", (c) => c.notNull())
          .addColumn("cursor", "bigint", (c) => c.notNull())
          .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("disabled_reason", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("webhooks_key").on("webhooks").column("api_key_id").execute();
        // One row per (endpoint, event): the unique pair makes the fan-out idempotent across processes.
        await db.schema
          .createTable("webhook_deliveries")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
          .addColumn("message_id", "text", (c) => c.notNull())
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("payload", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("next_attempt_ms", "bigint", (c) => c.notNull())
          .addColumn("lease_owner", "text")
          .addColumn("lease_until_ms", "bigint")
          .addColumn("last_status_code", "integer")
          .addColumn("last_error", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addUniqueConstraint("webhook_deliveries_message", ["webhook_id", "message_id"])
          .execute();
        await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_ms) where status = 'pending'`.execute(
          db,
        );
        await db.schema
          .createIndex("webhook_deliveries_webhook")
          .on("webhook_deliveries")
          .columns(["webhook_id", "created_at"])
          .execute();
      },
    },
  };
}
