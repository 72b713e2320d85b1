/** The outside-wallet builds table (both engines): what a send checks its signed transaction against. */
import type { Kysely, Migration } from "kysely";

/** The outside-build migrations, keyed by name. */
export function outsideBuildMigrations(): Record<string, Migration> {
  return {
    "2026_11_29_outside_builds": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("outside_builds")
          // SHA-256 of the built message, base64: a signed transaction carries the same message bytes.
          .addColumn("hash", "text", (c) => c.primaryKey())
          .addColumn("api_key_id", "integer", (c) => c.notNull())
          .addColumn("build", "text", (c) => c.notNull())
          .addColumn("expires_at_ms", "bigint", (c) => c.notNull())
          // Set once by the send that takes the build (the conditional update): a second send finds it taken.
          .addColumn("sent_at_ms", "bigint")
          .execute();
        await db.schema
          .createIndex("outside_builds_expiry")
          .on("outside_builds")
          .column("expires_at_ms")
          .execute();
      },
    },
  };
}
