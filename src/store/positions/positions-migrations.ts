/**
 * Issue 33: the positions ledger. `positions` holds one row per account × wallet × mint (its figures as JSON
 * text: every amount a decimal string, exact on both engines whatever its size); `position_entries` one line
 * per fill applied, keyed by the execution so a fill is never counted twice. Both are derived from the
 * execution history and can be rebuilt from it (`npm run positions:rebuild`).
 */
import { sql, type Kysely, type Migration } from "kysely";

/** The positions migrations, keyed by name (prefix `2026_11_28_positions`, then `2026_11_29_positions_`). */
export function positionMigrations(): Record<string, Migration> {
  return {
    "2026_11_28_positions": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("positions")
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("figures", "text", (c) => c.notNull())
          .addColumn("decimals", "integer")
          .addColumn("opened_at", "text", (c) => c.notNull())
          .addColumn("last_trade_at", "text", (c) => c.notNull())
          .addColumn("closed_at", "text")
          .addColumn("last_execution_id", "text")
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("positions_pk", ["api_key_id", "wallet", "mint"])
          .execute();
        await db.schema
          .createIndex("positions_key_mint")
          .on("positions")
          .columns(["api_key_id", "mint"])
          .execute();
        await db.schema
          .createTable("position_entries")
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("execution_id", "text", (c) => c.notNull())
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("side", "text", (c) => c.notNull())
          .addColumn("entry", "text", (c) => c.notNull())
          .addColumn("at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("position_entries_pk", ["api_key_id", "execution_id"])
          .execute();
        await db.schema
          .createIndex("position_entries_key_at")
          .on("position_entries")
          .columns(["api_key_id", "at"])
          .execute();
        // The events outbox gains its own payload: a position.updated event carries the position.
        await db.schema.alterTable("events").addColumn("data", "text").execute();
      },
    },
    // A bundle moves several positions in one execution (one fill per leg): a ledger line is keyed by the
    // execution and its leg. SQLite cannot change a primary key in place, so both engines copy the table.
    "2026_11_29_positions_legs": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("position_entries_legs")
          .addColumn("api_key_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("execution_id", "text", (c) => c.notNull())
          .addColumn("leg", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("side", "text", (c) => c.notNull())
          .addColumn("entry", "text", (c) => c.notNull())
          .addColumn("at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("position_entries_leg_pk", ["api_key_id", "execution_id", "leg"])
          .execute();
        await sql`insert into position_entries_legs (api_key_id, execution_id, leg, wallet, mint, side, entry, at)
          select api_key_id, execution_id, 0, wallet, mint, side, entry, at from position_entries`.execute(
          db,
        );
        await db.schema.dropTable("position_entries").execute();
        await db.schema.alterTable("position_entries_legs").renameTo("position_entries").execute();
        await db.schema
          .createIndex("position_entries_key_at")
          .on("position_entries")
          .columns(["api_key_id", "at"])
          .execute();
      },
    },
  };
}
