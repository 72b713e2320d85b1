/** The per-key request counters of the Kysely store (both engines): one upsert per counted request. */
import { sql, type Kysely } from "kysely";
import type { Database } from "./schema.js";
import type { RateCounterStore } from "./types.js";

// Rows of finished windows are harmless (the next request restarts them); sweep now and then to bound the table.
const SWEEP_EVERY = 512;
// The longest window any counter uses (RATE_LIMIT_WINDOW_MS at most 1 h): older rows are surely finished.
const LONGEST_WINDOW_MS = 3_600_000;

/** The counter methods over an open Kysely instance. */
export function kyselyRateCounters(db: Kysely<Database>): RateCounterStore {
  let calls = 0;
  return {
    async countRequest(key, windowStartMs) {
      const row = await db
        .insertInto("rate_counters")
        .values({ key, window_start_ms: windowStartMs, count: 1 })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            count: sql<number>`case when rate_counters.window_start_ms = ${windowStartMs} then rate_counters.count + 1 else 1 end`,
            window_start_ms: windowStartMs,
          }),
        )
        .returning("count")
        .executeTakeFirstOrThrow();
      calls += 1;
      if (calls % SWEEP_EVERY === 0) {
        await db
          .deleteFrom("rate_counters")
          .where("window_start_ms", "<", windowStartMs - LONGEST_WINDOW_MS)
          .execute();
      }
      return Number(row.count);
    },
  };
}
