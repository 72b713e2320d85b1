/**
 * Outside-wallet builds on both engines: one row per built message, so a send may reach any process on the
 * database; a send takes its build with one conditional update (`sent_at_ms is null`), so it is sent once.
 */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { OutsideBuildStore } from "./outside-build-types.js";

/** The outside-build methods over `db`. */
export function kyselyOutsideBuilds(db: Kysely<Database>): OutsideBuildStore {
  return {
    async insertOutsideBuild(b) {
      await db
        .insertInto("outside_builds")
        .values({
          hash: b.hash,
          api_key_id: b.apiKeyId,
          build: b.build,
          expires_at_ms: b.expiresAtMs,
          sent_at_ms: null,
        })
        // The same message built twice (same blockhash, amounts and random instruction choice) is one build.
        .onConflict((oc) =>
          oc
            .column("hash")
            .doUpdateSet({ api_key_id: b.apiKeyId, build: b.build, expires_at_ms: b.expiresAtMs })
            .where("outside_builds.sent_at_ms", "is", null),
        )
        .execute();
    },

    async takeOutsideBuild(hash, apiKeyId, nowMs, peek = false) {
      if (peek) {
        const row = await db
          .selectFrom("outside_builds")
          .select("build")
          .where("hash", "=", hash)
          .where("api_key_id", "=", apiKeyId)
          .where("sent_at_ms", "is", null)
          .where("expires_at_ms", ">", nowMs)
          .executeTakeFirst();
        return row?.build;
      }
      const row = await db
        .updateTable("outside_builds")
        .set({ sent_at_ms: nowMs })
        .where("hash", "=", hash)
        .where("api_key_id", "=", apiKeyId)
        .where("sent_at_ms", "is", null)
        .where("expires_at_ms", ">", nowMs)
        .returning("build")
        .executeTakeFirst();
      return row?.build;
    },

    async deleteExpiredOutsideBuilds(nowMs) {
      const r = await db.deleteFrom("outside_builds").where("expires_at_ms", "<=", nowMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
