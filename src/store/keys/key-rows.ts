/**
 * Rows that belong to one API key (an `api_key_id` column): the "of this key, in order" filter, written once
 * for the tables that have them. Their row mappers convert `id` and `api_key_id` with `Number` (PostgreSQL
 * returns bigint as a string; ids stay far below 2^53), written out in each mapper rather than spread from a
 * helper: V8 (Node 20) builds a literal that starts with a spread on a slow path, about 1 µs per property after
 * it (issue 18; every trade maps a wallet row, and the webhook worker its events).
 */
import type { Kysely, SelectQueryBuilder } from "kysely";
import type { Database } from "../schema.js";

/** The tables whose rows are an API key's own, each with an `id` that orders them. */
export type KeyRowsTable = "wallets" | "events" | "webhooks";

/** `query` kept to API key `apiKeyId`'s rows. */
export function ofKey<O>(
  query: SelectQueryBuilder<Database, KeyRowsTable, O>,
  apiKeyId: number,
): SelectQueryBuilder<Database, KeyRowsTable, O> {
  return query.where("api_key_id", "=", apiKeyId);
}

/** `query` kept to API key `apiKeyId`'s rows, ordered by id (after any order `query` already has). */
export function keyRows<O>(
  query: SelectQueryBuilder<Database, KeyRowsTable, O>,
  apiKeyId: number,
): SelectQueryBuilder<Database, KeyRowsTable, O> {
  return ofKey(query, apiKeyId).orderBy("id", "asc");
}

/** The smallest id among API key `apiKeyId`'s rows of `table` (its oldest row); undefined when it has none. */
export async function oldestIdOfKey(
  conn: Kysely<Database>,
  table: "wallets" | "events",
  apiKeyId: number,
): Promise<number | undefined> {
  const row = await keyRows(conn.selectFrom(table).select("id"), apiKeyId).limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}
