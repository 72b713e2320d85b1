/** The webhooks half of the Kysely store: endpoints, deliveries, and the delivery lease. */
import { type ExpressionBuilder, type Kysely, type Selectable } from "kysely";
import { compiledOnce } from "../engine/compiled-once.js";
import type { QueryRunner } from "../engine/query-runner.js";
import { keyRows, ofKey } from "../keys/key-rows.js";
import { lockKeyRow } from "../keys/key-row-lock.js";
import type { Database, WebhookDeliveriesTable, WebhooksTable } from "../schema.js";
import {
  WebhookCapReachedError,
  type DeliveryRecord,
  type DeliveryStatus,
  type WebhookRecord,
  type WebhookStore,
} from "./webhook-types.js";

function toWebhook(r: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: r.id,
    apiKeyId: Number(r.api_key_id),
    url: r.url,
    types: JSON.parse(r.types) as string[],
    wallets: r.wallets === null ? null : (JSON.parse(r.wallets) as string[]),
    secret: {
      ciphertext: r.secret_ciphertext,
      nonce: r.secret_nonce,
      tag: r.secret_tag,
      keyId: r.secret_key_id,
    },
    cursor: Number(r.cursor),
    disabled: Number(r.disabled) === 1,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
  };
}

function toDelivery(r: Selectable<WebhookDeliveriesTable>): DeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    messageId: r.message_id,
    type: r.type,
    payload: r.payload,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptMs: Number(r.next_attempt_ms),
    lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The webhook methods over an open Kysely instance. */
export function kyselyWebhooks(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  /** Runs the compiled-once listing (PostgreSQL: a named statement); default Kysely's driver. */
  prepared?: QueryRunner,
): WebhookStore {
  // The webhook worker lists the enabled endpoints on every event (each trade makes one): compiled once.
  const enabledWebhooks = compiledOnce(
    db,
    ["disabled"],
    (a: { disabled: number }) => db.selectFrom("webhooks").selectAll().where("disabled", "=", a.disabled),
    prepared,
  );
  return {
    async insertWebhook(w, maxPerAccount) {
      return db.transaction().execute(async (trx) => {
        // The count below then sees every earlier creation on the account.
        await lockKeyRow(trx, w.apiKeyId);
        const { n } = await trx
          .selectFrom("webhooks")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("api_key_id", "=", w.apiKeyId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= maxPerAccount) throw new WebhookCapReachedError(maxPerAccount);
        const row = await trx
          .insertInto("webhooks")
          .values({
            id: w.id,
            api_key_id: w.apiKeyId,
            url: w.url,
            types: JSON.stringify(w.types),
            wallets: w.wallets === null ? null : JSON.stringify(w.wallets),
            secret_ciphertext: w.secret.ciphertext,
            secret_nonce: w.secret.nonce,
            secret_tag: w.secret.tag,
            secret_key_id: w.secret.keyId,
            cursor: w.cursor,
            disabled: 0,
            disabled_reason: null,
            created_at: w.createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toWebhook(row);
      });
    },

    async listWebhooks(apiKeyId, page = {}) {
      let q = keyRows(db.selectFrom("webhooks").selectAll(), apiKeyId);
      if (page.after !== undefined) q = q.where("id", ">", page.after);
      if (page.limit !== undefined) q = q.limit(page.limit);
      return (await q.execute()).map(toWebhook);
    },

    async findWebhook(apiKeyId, id) {
      const row = await ofKey(db.selectFrom("webhooks").selectAll(), apiKeyId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row === undefined ? undefined : toWebhook(row);
    },

    async deleteWebhook(apiKeyId, id) {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("webhook_deliveries")
          .where(
            "webhook_id",
            "in",
            trx.selectFrom("webhooks").select("id").where("id", "=", id).where("api_key_id", "=", apiKeyId),
          )
          .execute();
        const r = await trx
          .deleteFrom("webhooks")
          .where("api_key_id", "=", apiKeyId)
          .where("id", "=", id)
          .executeTakeFirst();
        return Number(r.numDeletedRows) === 1;
      });
    },

    async listEnabledWebhooks() {
      const rows = await enabledWebhooks({ disabled: 0 });
      return rows.map(toWebhook);
    },

    async advanceWebhookCursor(id, expected, next) {
      const r = await db
        .updateTable("webhooks")
        .set({ cursor: next })
        .where("id", "=", id)
        .where("cursor", "=", expected)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async disableWebhook(id, reason) {
      await db
        .updateTable("webhooks")
        .set({ disabled: 1, disabled_reason: reason })
        .where("id", "=", id)
        .execute();
    },

    async insertDeliveries(deliveries, createdAt) {
      if (deliveries.length === 0) return;
      await db
        .insertInto("webhook_deliveries")
        .values(
          deliveries.map((d) => ({
            id: d.id,
            webhook_id: d.webhookId,
            message_id: d.messageId,
            type: d.type,
            payload: d.payload,
            status: "pending",
            attempts: 0,
            next_attempt_ms: d.nextAttemptMs,
            lease_owner: null,
            lease_until_ms: null,
            last_status_code: null,
            last_error: null,
            created_at: createdAt,
            updated_at: createdAt,
          })),
        )
        .onConflict((oc) => oc.columns(["webhook_id", "message_id"]).doNothing())
        .execute();
    },

    async listDeliveries(webhookId, limit) {
      const rows = await db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("webhook_id", "=", webhookId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },

    async findDelivery(webhookId, id) {
      const row = await db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("webhook_id", "=", webhookId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row === undefined ? undefined : toDelivery(row);
    },

    async claimDueDeliveries(owner, nowMs, leaseUntilMs, limit) {
      const leasable = (eb: ExpressionBuilder<Database, "webhook_deliveries">) =>
        eb.or([eb("lease_until_ms", "is", null), eb("lease_until_ms", "<", nowMs)]);
      let candidates = db
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_ms", "<=", nowMs)
        .where(leasable)
        .where("webhook_id", "in", db.selectFrom("webhooks").select("id").where("disabled", "=", 0))
        .orderBy("next_attempt_ms", "asc")
        .limit(limit);
      // As claimOpenExecutions: concurrent claimers skip each other's rows on PostgreSQL.
      if (dialect === "postgres") candidates = candidates.forUpdate().skipLocked();
      const rows = await db
        .updateTable("webhook_deliveries")
        .set({ lease_owner: owner, lease_until_ms: leaseUntilMs })
        .where("id", "in", candidates)
        .where("status", "=", "pending")
        .where(leasable)
        .returningAll()
        .execute();
      return rows.map(toDelivery);
    },

    async finishDelivery(id, owner, a, updatedAt) {
      const r = await db
        .updateTable("webhook_deliveries")
        .set({
          status: a.status,
          attempts: a.attempts,
          next_attempt_ms: a.nextAttemptMs,
          last_status_code: a.lastStatusCode,
          last_error: a.lastError,
          lease_owner: null,
          lease_until_ms: null,
          updated_at: updatedAt,
        })
        .where("id", "=", id)
        .where("lease_owner", "=", owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async requeueDelivery(webhookId, id, nowMs, updatedAt) {
      const row = await db
        .updateTable("webhook_deliveries")
        .set({ status: "pending", next_attempt_ms: nowMs, updated_at: updatedAt })
        .where("webhook_id", "=", webhookId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toDelivery(row);
    },
  };
}
