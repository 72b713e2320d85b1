/** Serializing writers of one key's (or account's) rows inside a transaction, on both engines. */
import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";

/**
 * A no-op write on the key's row: on PostgreSQL a row lock held to commit, on SQLite the database's write lock.
 * A count or sum read after it in the same transaction therefore sees every earlier writer's commit (key caps,
 * webhook caps, spend reservations).
 */
export async function lockKeyRow(trx: Kysely<Database>, keyId: number): Promise<void> {
  await trx
    .updateTable("api_keys")
    .set({ key_hash: sql`key_hash` })
    .where("id", "=", keyId)
    .execute();
}
