/** Webhook endpoints of an API key: create (secret shown once), list, delete, test delivery, deliveries, retry. */
import { randomUUID } from "node:crypto";
import { parseAddress } from "../../core/addresses.js";
import { isPlausibleId } from "../../core/request-fields.js";
import { utcTimestamp } from "../../core/timestamps.js";
import { ApiError, badRequest, EVENTS } from "../../core/errors.js";
import type { DeliveryRecord, EventStore, Store, WebhookRecord, WebhookStore } from "../../store/index.js";
import { isoNoZone, WebhookCapReachedError } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { parseEventTypes } from "../events/query.js";
import { newWebhookSecret } from "./signing.js";
import { checkWebhookUrl, type HostLookup } from "./url-policy.js";
import { timeOrderedUuid } from "../../core/time-ordered-id.js";

/** The associated data binding an encrypted signing secret to its endpoint. */
export const secretAad = (webhookId: string): string => `webhook:${webhookId}`;

/** An endpoint as the API shows it (never its secret). */
export interface WebhookView {
  id: string;
  url: string;
  types: string[];
  wallets: string[] | null;
  disabled: boolean;
  disabled_reason: string | null;
  created_at: string;
}

/** A delivery as the API shows it. */
export interface DeliveryView {
  id: string;
  webhook_id: string;
  message_id: string;
  type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What the endpoint operations and the delivery worker both need: the webhook tables and the event log. */
export interface WebhookBaseDeps {
  store: WebhookStore & Pick<EventStore, "eventBounds" | "listEvents">;
  clock: () => Date;
  /** Whether endpoint URLs may name private addresses (sandbox, tests). */
  allowPrivate: boolean;
  lookup?: HostLookup;
}

/** The collaborators of the endpoint operations. */
export interface WebhookServiceDeps extends WebhookBaseDeps {
  vault: Pick<Vault, "encryptSecret">;
  /** Endpoints one account may have (MAX_WEBHOOKS_PER_ACCOUNT). */
  maxPerAccount: number;
}

/** The public view of an endpoint. */
export function webhookView(w: WebhookRecord): WebhookView {
  return {
    id: w.id,
    url: w.url,
    types: w.types,
    wallets: w.wallets,
    disabled: w.disabled,
    disabled_reason: w.disabledReason,
    created_at: utcTimestamp(w.createdAt),
  };
}

/** The public view of a delivery. */
export function deliveryView(d: DeliveryRecord): DeliveryView {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    message_id: d.messageId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === "pending" ? new Date(d.nextAttemptMs).toISOString() : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: utcTimestamp(d.createdAt),
    updated_at: utcTimestamp(d.updatedAt),
  };
}

function parseTypes(value: unknown): string[] {
  if (Array.isArray(value) && value.length === 1 && value[0] === "*") return ["*"];
  if (!Array.isArray(value) || value.length === 0 || !value.every((t) => typeof t === "string"))
    throw badRequest(EVENTS.webhookTypesInvalid);
  try {
    return parseEventTypes(value.join(","));
  } catch {
    throw badRequest(EVENTS.webhookTypesInvalid);
  }
}

function parseWallets(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > 100)
    throw badRequest(EVENTS.webhookWalletsInvalid);
  return [...new Set(value.map((w) => parseAddress(w, EVENTS.webhookWalletsInvalid)))];
}

let lastIdMs = 0;

/**
 * A new endpoint id, time-ordered (issue 29: the listing pages in id order, which is then creation order) and
 * increasing within this process even for endpoints created in one millisecond (their time part moves ahead).
 */
function nextWebhookId(nowMs: number): string {
  lastIdMs = Math.max(nowMs, lastIdMs + 1);
  return `wh_${timeOrderedUuid(lastIdMs)}`;
}

/** Creates an endpoint receiving events from now on; the secret is returned here and never again. */
export async function createWebhook(
  deps: WebhookServiceDeps,
  apiKeyId: number,
  body: Record<string, unknown>,
): Promise<WebhookView & { secret: string }> {
  const url = await checkWebhookUrl(body.url, {
    allowPrivate: deps.allowPrivate,
    ...(deps.lookup !== undefined ? { lookup: deps.lookup } : {}),
  });
  const types = parseTypes(body.types);
  const wallets = parseWallets(body.wallets);
  const id = nextWebhookId(deps.clock().getTime());
  const secret = newWebhookSecret();
  let record: WebhookRecord;
  try {
    record = await deps.store.insertWebhook(
      {
        id,
        apiKeyId,
        url,
        types,
        wallets,
        secret: deps.vault.encryptSecret(Buffer.from(secret, "utf8"), secretAad(id)),
        // Events written before the endpoint existed are not delivered to it.
        cursor: (await deps.store.eventBounds(apiKeyId)).last,
        createdAt: isoNoZone(deps.clock()),
      },
      deps.maxPerAccount,
    );
  } catch (e) {
    // Each endpoint is one more signed POST per event: the cap bounds what one trade sends out.
    if (e instanceof WebhookCapReachedError)
      throw new ApiError(409, EVENTS.webhookLimit(e.max), { max_webhooks: e.max });
    throw e;
  }
  return { ...webhookView(record), secret };
}

/** Largest page of GET /v1/webhooks, and its size when the request names none. */
export const MAX_WEBHOOK_PAGE = 100;

/** One page of the account's endpoints and the `after` of the next page (null on the last one). */
export async function webhookPage(
  store: Pick<WebhookStore, "listWebhooks">,
  apiKeyId: number,
  query: { limit?: number; after?: string },
): Promise<{ webhooks: WebhookView[]; nextAfter: string | null }> {
  if (query.after !== undefined && !/^wh_[A-Za-z0-9-]{1,80}$/.test(query.after))
    throw badRequest(EVENTS.webhookPageAfterInvalid);
  const limit = query.limit ?? MAX_WEBHOOK_PAGE;
  // One more than asked: whether a next page exists without a second query.
  const rows = await store.listWebhooks(apiKeyId, {
    limit: limit + 1,
    ...(query.after !== undefined ? { after: query.after } : {}),
  });
  const page = rows.slice(0, limit);
  return { webhooks: page.map(webhookView), nextAfter: rows.length > limit ? page.at(-1)!.id : null };
}

/** The endpoint of this key, or 404. */
export async function requireWebhook(
  store: Pick<Store, "findWebhook">,
  apiKeyId: number,
  id: string,
): Promise<WebhookRecord> {
  const w = isPlausibleId(id) ? await store.findWebhook(apiKeyId, id) : undefined;
  if (w === undefined) throw new ApiError(404, EVENTS.webhookNotFound);
  return w;
}

/** Queues a `webhook.test` delivery to the endpoint (sent by the delivery worker). */
export async function queueTestDelivery(
  deps: Pick<WebhookServiceDeps, "store" | "clock">,
  apiKeyId: number,
  webhookId: string,
): Promise<DeliveryView> {
  const w = await requireWebhook(deps.store, apiKeyId, webhookId);
  const now = deps.clock();
  const id = `dlv_${timeOrderedUuid()}`;
  const payload = JSON.stringify({
    type: "webhook.test",
    timestamp: now.toISOString(),
    data: { webhook_id: w.id },
  });
  await deps.store.insertDeliveries(
    [
      {
        id,
        webhookId: w.id,
        messageId: `test_${randomUUID()}`,
        type: "webhook.test",
        payload,
        nextAttemptMs: now.getTime(),
      },
    ],
    isoNoZone(now),
  );
  const d = await deps.store.findDelivery(w.id, id);
  if (d === undefined) throw new Error("test delivery vanished");
  return deliveryView(d);
}

/** Makes a delivery pending again, due now, with the same message id. */
export async function retryDelivery(
  deps: Pick<WebhookServiceDeps, "store" | "clock">,
  apiKeyId: number,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const w = await requireWebhook(deps.store, apiKeyId, webhookId);
  const now = deps.clock();
  const d = isPlausibleId(deliveryId)
    ? await deps.store.requeueDelivery(w.id, deliveryId, now.getTime(), isoNoZone(now))
    : undefined;
  if (d === undefined) throw new ApiError(404, EVENTS.deliveryNotFound);
  return deliveryView(d);
}
