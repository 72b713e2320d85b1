/** The Idempotency-Key half of the Kysely store (both engines). */
import type { Kysely, Selectable } from "kysely";
import type { Database, IdempotencyKeysTable } from "../schema.js";
import type { IdempotencyRecord, IdempotencyStore } from "../types.js";

function toRecord(r: Selectable<IdempotencyKeysTable>): IdempotencyRecord {
  return {
    // Ids written out, not spread from a helper (key-rows.ts says why).
    id: Number(r.id),
    apiKeyId: Number(r.api_key_id),
    keyId: Number(r.key_id),
    key: r.key,
    fingerprint: r.fingerprint,
    owner: r.owner,
    // PostgreSQL returns bigint columns as strings.
    lockedUntilMs: Number(r.locked_until_ms),
    response:
      r.response_status === null
        ? null
        : {
            status: Number(r.response_status),
            contentType: r.response_type ?? "application/json; charset=utf-8",
            body: r.response_body ?? "",
          },
    createdAtMs: Number(r.created_at_ms),
  };
}

/** The id of the account's execution recorded under Idempotency-Key `key`, if any (an order's fire uses its own keys). */
export async function executionIdByKey(
  db: Kysely<Database>,
  accountId: number,
  key: string,
): Promise<string | undefined> {
  const r = await db
    .selectFrom("executions")
    .select("id")
    .where("api_key_id", "=", accountId)
    .where("idempotency_key", "=", key)
    .limit(1)
    .executeTakeFirst();
  return r?.id;
}

/** The idempotency methods over an open Kysely instance. */
export function kyselyIdempotency(db: Kysely<Database>): IdempotencyStore {
  return {
    async hasIdempotentExecution(apiKeyId, key) {
      return (await executionIdByKey(db, apiKeyId, key)) !== undefined;
    },

    async insertIdempotencyKey(k) {
      const row = await db
        .insertInto("idempotency_keys")
        .values({
          api_key_id: k.apiKeyId,
          key_id: k.keyId,
          key: k.key,
          fingerprint: k.fingerprint,
          owner: k.owner,
          locked_until_ms: k.lockedUntilMs,
          created_at_ms: k.createdAtMs,
        })
        .onConflict((oc) => oc.columns(["api_key_id", "key_id", "key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.id);
    },

    async findIdempotencyKey(apiKeyId, keyId, key) {
      const r = await db
        .selectFrom("idempotency_keys")
        .selectAll()
        .where("api_key_id", "=", apiKeyId)
        .where("key_id", "=", keyId)
        .where("key", "=", key)
        .executeTakeFirst();
      return r === undefined ? undefined : toRecord(r);
    },

    async leaseIdempotencyKey(id, expected, next) {
      const r = await db
        .updateTable("idempotency_keys")
        .set({ owner: next.owner, locked_until_ms: next.lockedUntilMs })
        .where("id", "=", id)
        .where("owner", "=", expected.owner)
        .where("locked_until_ms", "=", expected.lockedUntilMs)
        .where("response_status", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async completeIdempotencyKey(id, owner, response) {
      const r = await db
        .updateTable("idempotency_keys")
        .set({
          response_status: response.status,
          response_type: response.contentType,
          response_body: response.body,
        })
        .where("id", "=", id)
        .where("owner", "=", owner)
        .where("response_status", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async releaseIdempotencyKey(id, owner) {
      await db
        .deleteFrom("idempotency_keys")
        .where("id", "=", id)
        .where("owner", "=", owner)
        .where("response_status", "is", null)
        .execute();
    },

    async deleteExpiredIdempotencyKey(id, createdBeforeMs) {
      await db
        .deleteFrom("idempotency_keys")
        .where("id", "=", id)
        .where("created_at_ms", "<", createdBeforeMs)
        .execute();
    },

    async purgeIdempotencyKeys(createdBeforeMs) {
      const r = await db
        .deleteFrom("idempotency_keys")
        .where("created_at_ms", "<", createdBeforeMs)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
