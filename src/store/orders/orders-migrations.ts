/** The orders table (both engines). */
import { sql, type Kysely, type Migration } from "kysely";

/** The orders migrations, keyed by name. */
export function orderMigrations(): Record<string, Migration> {
  return {
    "2026_11_28_orders": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("orders")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("account_id", "integer", (c) =>
            c.notNull().references("api_keys.id").onDelete("cascade"),
          )
          .addColumn("key_id", "integer", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("side", "text", (c) => c.notNull())
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("wallet", "text", (c) => c.notNull())
          .addColumn("spec", "text", (c) => c.notNull())
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("version", "integer", (c) => c.notNull())
          .addColumn("attempt", "integer", (c) => c.notNull())
          .addColumn("lease_owner", "text")
          .addColumn("lease_until_ms", "bigint")
          .addColumn("peak", "text")
          .addColumn("triggered_by", "text")
          .addColumn("error", "text")
          .addColumn("execution_ids", "text", (c) => c.notNull())
          .addColumn("expires_at", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("orders_account_created")
          .on("orders")
          .columns(["account_id", "created_at"])
          .execute();
        // The live orders (loaded at start, re-read by every process) and the open count of a key.
        await sql`create index orders_live on orders (updated_at) where state in ('open', 'triggered')`.execute(
          db,
        );
        await sql`create index orders_key_live on orders (key_id) where state in ('open', 'triggered')`.execute(
          db,
        );
      },
    },
    // A standing order (snipe) fires once per mint: the primary key is the claim across processes.
    "2026_11_28_orders_z_fires": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("order_fires")
          .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("account_id", "integer", (c) => c.notNull())
          .addColumn("lamports", "text", (c) => c.notNull())
          .addColumn("execution_id", "text")
          .addColumn("at_ms", "bigint", (c) => c.notNull())
          .addPrimaryKeyConstraint("order_fires_pk", ["order_id", "mint"])
          .execute();
        await db.schema
          .createIndex("order_fires_at")
          .on("order_fires")
          .columns(["order_id", "at_ms"])
          .execute();
      },
    },
    // A copy order fires once per followed trade: (order, signature) is the claim across processes.
    "2026_11_28_orders_z_copy_fires": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("order_copy_fires")
          .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
          .addColumn("signature", "text", (c) => c.notNull())
          .addColumn("account_id", "integer", (c) => c.notNull())
          .addColumn("mint", "text", (c) => c.notNull())
          .addColumn("side", "text", (c) => c.notNull())
          .addColumn("lamports", "text", (c) => c.notNull())
          .addColumn("execution_id", "text")
          .addColumn("outcome", "text")
          .addColumn("at_ms", "bigint", (c) => c.notNull())
          .addPrimaryKeyConstraint("order_copy_fires_pk", ["order_id", "signature"])
          .execute();
        await db.schema
          .createIndex("order_copy_fires_mint")
          .on("order_copy_fires")
          .columns(["order_id", "mint"])
          .execute();
        await db.schema
          .createIndex("order_copy_fires_at")
          .on("order_copy_fires")
          .columns(["order_id", "at_ms"])
          .execute();
      },
    },
    // A fire refused by the key's policy at fire time keeps its row with the refusal: the mint is not used up
    // (a later event for it may fire once the policy allows) and the refusal does not count in the hourly cap.
    "2026_11_28_orders_z_fires_refused": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("order_fires").addColumn("refused", "text").execute();
      },
    },
    // What GET /v1/orders/{id}/fires shows of a copied trade: who traded, their size and ours (null on older
    // rows); an index of the unsettled claims. Named to sort after every 2026_11_29 migration before it (kysely refuses one out of order).
    "2026_11_29_z_orders_copy_fires_detail": {
      async up(db: Kysely<unknown>) {
        for (const column of ["trader", "their_lamports", "their_units", "our_amount"])
          await db.schema.alterTable("order_copy_fires").addColumn(column, "text").execute();
        // The claims whose send is not settled: the reconciliation of a process that ended between claim and send.
        await sql`create index order_copy_fires_unsettled on order_copy_fires (at_ms) where outcome is null`.execute(
          db,
        );
      },
    },
    // How a snipe fire ended when it sent nothing (failed:<reason>, dropped:<why>) or what its execution was
    // (filled, pending, failed), as a copy fire's outcome; null while claimed. The unsettled claims are indexed
    // for the reconciliation after a process ended between claim and settlement. Sorts after the migration above.
    "2026_11_29_z_orders_fires_outcome": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("order_fires").addColumn("outcome", "text").execute();
        await sql`create index order_fires_unsettled on order_fires (at_ms)
          where outcome is null and refused is null and execution_id is null`.execute(db);
      },
    },
  };
}
