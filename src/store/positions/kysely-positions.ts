/** Issue 33: the positions half of the Kysely store (both engines): listing, the ledger lines, the rebuild. */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { isoNoZone } from "../executions/kysely-executions.js";
import { applyExecutionFill, entryFromJson, executionFillOf, toPosition } from "./apply-fill.js";
import type { PositionStore } from "./position-types.js";

/** How many executions a rebuild reads per page. */
const REBUILD_PAGE = 500;

/** The positions methods over an open Kysely instance. */
export function kyselyPositions(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  clock: () => Date,
): PositionStore {
  return {
    async listPositions(q) {
      let query = db.selectFrom("positions").selectAll().where("api_key_id", "=", q.apiKeyId);
      if (q.wallet !== undefined) query = query.where("wallet", "=", q.wallet);
      if (q.mint !== undefined) query = query.where("mint", "=", q.mint);
      if (q.status !== undefined) query = query.where("status", "=", q.status);
      if (q.onlyWallets !== undefined)
        query =
          q.onlyWallets.length === 0
            ? query.where("wallet", "=", "")
            : query.where("wallet", "in", [...q.onlyWallets]);
      const after = q.after;
      if (after !== undefined)
        query = query.where((eb) =>
          eb.or([
            eb("wallet", ">", after.wallet),
            eb.and([eb("wallet", "=", after.wallet), eb("mint", ">", after.mint)]),
          ]),
        );
      const rows = await query.orderBy("wallet").orderBy("mint").limit(q.limit).execute();
      return rows.map(toPosition);
    },

    async findPosition(apiKeyId, wallet, mint) {
      const row = await db
        .selectFrom("positions")
        .selectAll()
        .where("api_key_id", "=", apiKeyId)
        .where("wallet", "=", wallet)
        .where("mint", "=", mint)
        .executeTakeFirst();
      return row === undefined ? undefined : toPosition(row);
    },

    async listPositionEntries(q) {
      let query = db.selectFrom("position_entries").selectAll().where("api_key_id", "=", q.apiKeyId);
      if (q.from !== undefined) query = query.where("at", ">=", q.from);
      if (q.to !== undefined) query = query.where("at", "<", q.to);
      if (q.onlyWallets !== undefined)
        query =
          q.onlyWallets.length === 0
            ? query.where("wallet", "=", "")
            : query.where("wallet", "in", [...q.onlyWallets]);
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
      const now = isoNoZone(clock());
      return db.transaction().execute(async (trx) => {
        let drop = trx.deleteFrom("position_entries");
        let dropPositions = trx.deleteFrom("positions");
        if (apiKeyId !== undefined) {
          drop = drop.where("api_key_id", "=", apiKeyId);
          dropPositions = dropPositions.where("api_key_id", "=", apiKeyId);
        }
        await drop.execute();
        await dropPositions.execute();
        let executions = 0;
        let last: { createdAt: string; id: string } | undefined;
        for (;;) {
          // The order the live ledger applies them in when trades of one position do not overlap: recording order.
          let page = trx
            .selectFrom("executions")
            .select(["id", "api_key_id", "kind", "status", "wallet", "request", "response", "created_at"])
            .where("kind", "=", "trade")
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
            const fill = executionFillOf(row);
            if (fill !== null && (await applyExecutionFill(trx, dialect, fill, now, false)) !== null)
              executions++;
          }
          if (rows.length < REBUILD_PAGE) break;
          const end = rows[rows.length - 1]!;
          last = { createdAt: end.created_at, id: end.id };
        }
        let count = trx.selectFrom("positions").select((eb) => eb.fn.countAll<number | string>().as("n"));
        if (apiKeyId !== undefined) count = count.where("api_key_id", "=", apiKeyId);
        const n = await count.executeTakeFirstOrThrow();
        return { executions, positions: Number(n.n) };
      });
    },
  };
}
