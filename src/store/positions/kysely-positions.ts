/** Issue 33: the positions half of the Kysely store (both engines): listing, the ledger lines, the rebuild. */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { walletIn } from "../keys/wallet-scope.js";
import { entryFromJson, FiguresCache, toPosition } from "./apply-fill.js";
import { rebuildLedger } from "./rebuild.js";
import type { PositionStore } from "./position-types.js";

/** The positions methods over an open Kysely instance. */
export function kyselyPositions(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
): PositionStore {
  const figures = new FiguresCache();
  const read = (r: Parameters<typeof toPosition>[0]) => toPosition(r, figures);
  return {
    async listPositions(q) {
      let query = db.selectFrom("positions").selectAll().where("api_key_id", "=", q.apiKeyId);
      if (q.wallet !== undefined) query = query.where("wallet", "=", q.wallet);
      if (q.mint !== undefined) query = query.where("mint", "=", q.mint);
      if (q.status !== undefined) query = query.where("status", "=", q.status);
      if (q.onlyWallets !== undefined) query = query.where("wallet", "in", walletIn(q.onlyWallets));
      const after = q.after;
      if (after !== undefined)
        // A row comparison: both engines seek the primary key (api_key_id, wallet, mint) to the cursor.
        query = query.where((eb) =>
          eb(eb.refTuple("wallet", "mint"), ">", eb.tuple(after.wallet, after.mint)),
        );
      const rows = await query.orderBy("wallet").orderBy("mint").limit(q.limit).execute();
      return rows.map(read);
    },

    async findPosition(apiKeyId, wallet, mint) {
      const row = await db
        .selectFrom("positions")
        .selectAll()
        .where("api_key_id", "=", apiKeyId)
        .where("wallet", "=", wallet)
        .where("mint", "=", mint)
        .executeTakeFirst();
      return row === undefined ? undefined : read(row);
    },

    async listPositionEntries(q) {
      let query = db.selectFrom("position_entries").selectAll().where("api_key_id", "=", q.apiKeyId);
      if (q.from !== undefined) query = query.where("at", ">=", q.from);
      if (q.to !== undefined) query = query.where("at", "<", q.to);
      if (q.onlyWallets !== undefined) query = query.where("wallet", "in", walletIn(q.onlyWallets));
      const rows = await query.orderBy("at").orderBy("execution_id").execute();
      return rows.map((r) => ({
        apiKeyId: Number(r.api_key_id),
        executionId: r.execution_id,
        wallet: r.wallet,
        mint: r.mint,
        entry: entryFromJson(r.entry),
        at: r.at,
      }));
    },

    async rebuildPositions(apiKeyId) {
      return rebuildLedger(db, dialect, isoNoZone(clock()), apiKeyId);
    },
  };
}
