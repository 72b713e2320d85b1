/**
 * Outside-wallet builds on both engines: one row per built message, so a send may reach any process on the
 * database; a send takes its build with one conditional update (`sent_at_ms is null`), so it is sent once.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { QueryRunner } from "../engine/query-runner.js";
import type { Database } from "../schema.js";
import type { OutsideBuildStore } from "./outside-build-types.js";

/**
 * The outside-build methods over `db`; `writes` runs the build's insert: on SQLite the group commit, where it
 * commits without its own fsync (sqlite-statements.ts `isRelaxedGroupWrite`: a build lost to an OS crash is only
 * a send refused, and rebuilt); on PostgreSQL a named prepared statement (pg-group-commit.ts).
 */
export function kyselyOutsideBuilds(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  writes?: QueryRunner,
): OutsideBuildStore {
  const [p1, p2, p3, p4] = dialect === "postgres" ? ["$1", "$2", "$3", "$4"] : ["?", "?", "?", "?"];
  // The same message built twice (same blockhash, amounts and instruction choice) is one build, unless sent.
  const insertSql =
    // `sent_at_ms` left to its default (null): a values list of parameters only, which PostgreSQL's batched
    // inserts (pg-group-commit.ts) write many at a time in one statement and one commit.
    `insert into "outside_builds" ("hash", "api_key_id", "build", "expires_at_ms") ` +
    `values (${p1}, ${p2}, ${p3}, ${p4}) on conflict ("hash") do update set ` +
    `"api_key_id" = excluded."api_key_id", "build" = excluded."build", "expires_at_ms" = excluded."expires_at_ms" ` +
    `where "outside_builds"."sent_at_ms" is null`;
  return {
    async insertOutsideBuild(b) {
      // A fixed text, not a query builder: the build's insert is on the path of every build (1,000/s).
      const query = CompiledQuery.raw(insertSql, [b.hash, b.apiKeyId, b.build, b.expiresAtMs]);
      await (writes ?? ((q) => db.executeQuery(q)))(query);
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
