/** Holds a Kysely connection the way another request would, for the SQLite connection tests. */
import type { CompiledQuery, Kysely } from "kysely";
import type { Database } from "../../../src/store/schema.js";

/**
 * Holds `db`'s connection until released: inside a transaction that first runs `inside` when `trx` (committed
 * when released with true, rolled back otherwise), else without one.
 */
export function holdConnection(db: Kysely<Database>, trx: boolean, inside: CompiledQuery) {
  let release!: (commit: boolean) => void;
  const gate = new Promise<boolean>((r) => (release = r));
  const done = trx
    ? db
        .transaction()
        .execute(async (t) => {
          await t.executeQuery(inside);
          if (!(await gate)) throw new Error("roll back");
        })
        .catch(() => undefined)
    : db.connection().execute(async () => {
        await gate;
      });
  return { release, done };
}
