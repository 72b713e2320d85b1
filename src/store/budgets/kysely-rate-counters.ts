/** The per-key request counters of the Kysely store (both engines): one upsert per counted request. */
import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { RateCounterStore } from "../types.js";

// Rows of finished windows are harmless (the next request restarts them); sweep now and then to bound the table.
const SWEEP_EVERY = 512;
// The longest window any counter uses (RATE_LIMIT_WINDOW_MS at most 1 h): older rows are surely finished.
const LONGEST_WINDOW_MS = 3_600_000;

/** The counter methods over an open Kysely instance. */
export function kyselyRateCounters(db: Kysely<Database>): RateCounterStore {
  let calls = 0;
  // One multi-row upsert (both engines accept it when the keys are distinct): a key and its account in one trip.
  const upsert = async (keys: readonly string[], windowStartMs: number): Promise<number[]> => {
    const rows = await db
      .insertInto("rate_counters")
      .values(keys.map((key) => ({ key, window_start_ms: windowStartMs, count: 1 })))
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          count: sql<number>`case when rate_counters.window_start_ms = ${windowStartMs} then rate_counters.count + 1 else 1 end`,
          window_start_ms: windowStartMs,
        }),
      )
      .returning(["key", "count"])
      .execute();
    calls += 1;
    if (calls % SWEEP_EVERY === 0) {
      await db
        .deleteFrom("rate_counters")
        .where("window_start_ms", "<", windowStartMs - LONGEST_WINDOW_MS)
        .execute();
    }
    // RETURNING's row order is not promised for a multi-row insert: matched by key.
    const byKey = new Map(rows.map((r) => [r.key, Number(r.count)]));
    return keys.map((k) => byKey.get(k) ?? 1);
  };
  return {
    async countRequest(key, windowStartMs) {
      const [n] = await upsert([key], windowStartMs);
      return n!;
    },
    countRequests: upsert,
  };
}
