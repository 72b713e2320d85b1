/**
 * Issue 33: the positions ledger rebuilt from the execution history, safe while the service runs.
 *
 * The rebuild holds the ledger's write lock for its whole transaction: on PostgreSQL
 * `LOCK TABLE positions, position_entries IN EXCLUSIVE MODE` (reads go on; a fill's ledger write waits for the
 * rebuild to commit, then applies on the rebuilt ledger, so no fill is lost or counted twice); on SQLite the
 * first statement takes the database's one write lock. Under the lock it reads every fill, folds them in
 * memory (the live writer's own fold, `foldFill`) and writes the result in batches, so the lock is held for
 * reads and a few bulk inserts, not for one round trip per fill.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import { entryRow, foldFill, newPosition, positionRow } from "./apply-fill.js";
import { executionFillsOf, FILL_KINDS } from "./execution-fills.js";
import type { PositionRecord, RebuildReport } from "./position-types.js";

/** How many executions a rebuild reads per page, and how many rows one insert writes. */
const REBUILD_PAGE = 500;
const INSERT_BATCH = 200;

/** Drops the ledger (of one account, or of all) and folds every fill of the history again, in one transaction. */
export async function rebuildLedger(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  now: string,
  apiKeyId?: number,
): Promise<RebuildReport> {
  return db.transaction().execute(async (trx) => {
    // Taken before anything is read: what the rebuild reads is what no ledger writer can change until it commits.
    if (dialect === "postgres")
      await sql`lock table positions, position_entries in exclusive mode`.execute(trx);
    let drop = trx.deleteFrom("position_entries");
    let dropPositions = trx.deleteFrom("positions");
    if (apiKeyId !== undefined) {
      drop = drop.where("api_key_id", "=", apiKeyId);
      dropPositions = dropPositions.where("api_key_id", "=", apiKeyId);
    }
    await drop.execute();
    await dropPositions.execute();
    const positions = new Map<string, PositionRecord>();
    const entries: ReturnType<typeof entryRow>[] = [];
    let executions = 0;
    let last: { createdAt: string; id: string } | undefined;
    for (;;) {
      // The order the live ledger applies them in when trades of one position do not overlap: recording order.
      let page = trx
        .selectFrom("executions")
        .select(["id", "api_key_id", "kind", "status", "wallet", "request", "response", "created_at"])
        .where("kind", "in", [...FILL_KINDS])
        .where("status", "in", ["confirmed", "finalized"]);
      if (apiKeyId !== undefined) page = page.where("api_key_id", "=", apiKeyId);
      const from = last;
      if (from !== undefined)
        page = page.where((eb) =>
          eb.or([
            eb("created_at", ">", from.createdAt),
            eb.and([eb("created_at", "=", from.createdAt), eb("id", ">", from.id)]),
          ]),
        );
      const rows = await page.orderBy("created_at").orderBy("id").limit(REBUILD_PAGE).execute();
      for (const row of rows) {
        const fills = executionFillsOf(row);
        for (const f of fills) {
          const key = `${f.apiKeyId}:${f.wallet}:${f.mint}`;
          const { after, entry } = foldFill(positions.get(key) ?? newPosition(f, now), f, now);
          positions.set(key, after);
          entries.push(entryRow(f, entry));
        }
        if (fills.length > 0) executions++;
      }
      if (rows.length < REBUILD_PAGE) break;
      const end = rows[rows.length - 1]!;
      last = { createdAt: end.created_at, id: end.id };
    }
    const rows = [...positions.values()].map(positionRow);
    for (let i = 0; i < rows.length; i += INSERT_BATCH)
      await trx
        .insertInto("positions")
        .values(rows.slice(i, i + INSERT_BATCH))
        .execute();
    for (let i = 0; i < entries.length; i += INSERT_BATCH)
      await trx
        .insertInto("position_entries")
        .values(entries.slice(i, i + INSERT_BATCH))
        .execute();
    // One ledger line per fill applied: a bundle's legs count one each.
    return { executions, fills: entries.length, positions: positions.size };
  });
}
