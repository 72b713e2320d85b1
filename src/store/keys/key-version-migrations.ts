/**
 * A version on every key row, counted up by the database itself whenever anything a custody decision reads of the
 * row changes (scopes, wallets, expiry, revocation, either freeze flag, policy, the chain, the hash). An order's
 * fire decides on a key it read earlier and commits its claim only while the versions it decided on are still
 * the rows' (live-keys.ts), so a decision on an older key never reaches the chain. A trigger, not the writers:
 * every update path, today's and tomorrow's, counts; the lock writes (`key_hash = key_hash`) and the wallet
 * counter change nothing a decision reads, so they leave the version alone.
 */
import { sql, type Kysely, type Migration } from "kysely";

/** The columns of `api_keys` a custody decision reads. */
const DECIDING = [
  "key_hash",
  "account_id",
  "scopes",
  "wallets",
  "expires_at",
  "revoked_at",
  "frozen",
  "account_frozen",
  "policy",
  "created_by_key_id",
] as const;

/** The key-version migration, keyed by name. */
export function keyVersionMigrations(dialect: "sqlite" | "postgres"): Record<string, Migration> {
  return {
    "2026_11_30_api_keys_version": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable("api_keys")
          .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        if (dialect === "postgres") {
          const row = (alias: string) => `(${DECIDING.map((c) => `${alias}.${c}`).join(", ")})`;
          const changed = `${row("new")} is distinct from ${row("old")}`;
          await sql
            .raw(
              `create or replace function api_keys_version() returns trigger language plpgsql as $$
               begin if ${changed} then new.version := old.version + 1; end if; return new; end $$`,
            )
            .execute(db);
          await sql`create trigger api_keys_version before update on api_keys
            for each row execute function api_keys_version()`.execute(db);
        } else {
          // `new.version = old.version`: the trigger's own update sets it, so it never runs for that one (even
          // on a connection with recursive_triggers on).
          const changed = DECIDING.map((c) => `new.${c} is not old.${c}`).join(" or ");
          await sql
            .raw(
              `create trigger api_keys_version after update on api_keys
               when new.version = old.version and (${changed})
               begin update api_keys set version = old.version + 1 where id = new.id; end`,
            )
            .execute(db);
        }
      },
    },
  };
}
