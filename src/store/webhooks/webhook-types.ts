/** Records and store methods of webhook endpoints and their deliveries (issue 20). */
import type { EncryptedSecret } from "../types.js";

export interface WebhookRecord {
  id: string;
  apiKeyId: number;
  url: string;
  /** Event types delivered; ["*"] = all. */
  types: string[];
  /** Only events involving one of these wallets; null = all. */
  wallets: string[] | null;
  secret: EncryptedSecret;
  /** Last event id of the account already turned into deliveries. */
  cursor: number;
  disabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  /** The `webhook-id` header: the event id (or `test_...`), the same on every attempt. */
  messageId: string;
  type: string;
  /** The exact body sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptMs: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewDelivery = Pick<
  DeliveryRecord,
  "id" | "webhookId" | "messageId" | "type" | "payload" | "nextAttemptMs"
>;

/** The outcome of one attempt, written only while the writer holds the lease. */
export interface DeliveryAttempt {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptMs: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

/** Thrown by `insertWebhook` when the account already has its maximum number of endpoints. */
export class WebhookCapReachedError extends Error {
  constructor(readonly max: number) {
    super(`the account already has ${max} webhooks`);
    this.name = "WebhookCapReachedError";
  }
}

/** A page of an account's endpoints: `limit` of them with an id above `after`, in id order. */
export interface WebhookPageQuery {
  after?: string;
  limit?: number;
}

/** The webhook methods of the store. */
export interface WebhookStore {
  /**
   * Inserts an endpoint unless the account already has `maxPerAccount` (then WebhookCapReachedError): counted in
   * the insert's transaction, after a write on the account's key row, so concurrent creations of one account
   * (in any process) are counted one after the other.
   */
  insertWebhook(
    w: Omit<WebhookRecord, "disabled" | "disabledReason">,
    maxPerAccount: number,
  ): Promise<WebhookRecord>;
  /** The account's endpoints in id order (ids are time-ordered: creation order), optionally one page of them. */
  listWebhooks(apiKeyId: number, page?: WebhookPageQuery): Promise<WebhookRecord[]>;
  findWebhook(apiKeyId: number, id: string): Promise<WebhookRecord | undefined>;
  deleteWebhook(apiKeyId: number, id: string): Promise<boolean>;
  /** Enabled endpoints of every account (the fan-out's work list). */
  listEnabledWebhooks(): Promise<WebhookRecord[]>;
  /** Moves an endpoint's cursor from `expected` to `next`; false when another process moved it first. */
  advanceWebhookCursor(id: string, expected: number, next: number): Promise<boolean>;
  disableWebhook(id: string, reason: string): Promise<void>;
  /** Inserts deliveries; one whose (webhook, message id) exists is skipped. */
  insertDeliveries(deliveries: NewDelivery[], createdAt: string): Promise<void>;
  listDeliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]>;
  findDelivery(webhookId: string, id: string): Promise<DeliveryRecord | undefined>;
  /**
   * Leases up to `limit` pending deliveries due at `nowMs` that no process holds a live lease on, of enabled
   * endpoints, and returns them. Atomic across processes sharing the database.
   */
  claimDueDeliveries(
    owner: string,
    nowMs: number,
    leaseUntilMs: number,
    limit: number,
  ): Promise<DeliveryRecord[]>;
  /** Writes an attempt's outcome and drops the lease, only while `owner` holds it. */
  finishDelivery(id: string, owner: string, attempt: DeliveryAttempt, updatedAt: string): Promise<boolean>;
  /** Makes a delivery pending and due now (manual retry); it keeps its message id. */
  requeueDelivery(
    webhookId: string,
    id: string,
    nowMs: number,
    updatedAt: string,
  ): Promise<DeliveryRecord | undefined>;
}
