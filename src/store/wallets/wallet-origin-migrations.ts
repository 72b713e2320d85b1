/**
 * Issue 29 finding 5: which key added each wallet, and whether that wallet counts as "the account's own" for
 * a key's `destinations_allow` (domain/keys/wallet-origin.ts decides it when the wallet is added).
 */
import type { Kysely, Migration } from "kysely";

/** The migration, keyed by name (sorts after the custody migrations of 2026_11_24). */
export function walletOriginMigrations(): Record<string, Migration> {
  return {
    "2026_11_28_wallet_origin": {
      async up(db: Kysely<unknown>) {
        // Null: added at setup, outside any key's request, or before this migration.
        await db.schema.alterTable("wallets").addColumn("added_by_key_id", "integer").execute();
        // 1 = a destination every key's `destinations_allow` accepts as the account's own. Rows written
        // before this migration keep counting as own (they were added before sub-keys could widen the rule).
        await db.schema
          .alterTable("wallets")
          .addColumn("vouched", "integer", (c) => c.notNull().defaultTo(1))
          .execute();
      },
    },
  };
}
