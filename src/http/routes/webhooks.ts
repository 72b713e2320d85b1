/** Webhook endpoints: POST/GET/DELETE /v1/webhooks, test delivery, deliveries, manual retry (issue 20). */
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { badRequest, EVENTS } from "../../core/errors.js";
import {
  createWebhook,
  deliveryView,
  MAX_WEBHOOK_PAGE,
  queueTestDelivery,
  requireWebhook,
  retryDelivery,
  webhookPage,
  type WebhookServiceDeps,
} from "../../domain/webhooks/service.js";
import type { HostLookup } from "../../domain/webhooks/url-policy.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, authErrors, errorSchema, ref, closedObject } from "../openapi/schemas.js";

const webhookProps = {
  id: { type: "string", description: "the webhook id (/v1/webhooks/{id})" },
  url: { type: "string", description: "where deliveries are POSTed" },
  types: { type: "array", items: { type: "string" }, description: 'event types delivered; ["*"] = all' },
  wallets: {
    type: ["array", "null"],
    items: { type: "string" },
    description: "only events involving one of these wallets; null = all",
  },
  disabled: { type: "boolean", description: "true when deliveries stopped (see disabled_reason)" },
  disabled_reason: { type: ["string", "null"], description: "why deliveries stopped; null while enabled" },
  created_at: { type: "string", description: "RFC 3339 UTC with Z" },
} as const;
const webhookRequired = ["id", "url", "types", "wallets", "disabled", "disabled_reason", "created_at"];

/** A webhook endpoint without its secret (the `Webhook` component). */
export const webhookComponent = closedObject(webhookProps, {
  $id: "Webhook",
  description: "A webhook endpoint (never its signing secret)",
  required: webhookRequired,
});

/** One delivery of an event to a webhook (the `WebhookDelivery` component). */
export const deliveryComponent = closedObject(
  {
    id: { type: "string", description: "the delivery id" },
    webhook_id: { type: "string", description: "the webhook it goes to" },
    message_id: {
      type: "string",
      description: "the webhook-id header: the event id (test_... for a test), the same on every attempt",
    },
    type: { type: "string", description: "the event type, e.g. execution.confirmed or webhook.test" },
    status: {
      type: "string",
      enum: ["pending", "delivered", "failed"],
      description: "pending: attempts remain; delivered: a 2xx came back; failed: attempts exhausted",
    },
    attempts: { type: "integer", description: "attempts made so far" },
    next_attempt_at: {
      type: ["string", "null"],
      description: "RFC 3339 UTC with Z: the next attempt; null when none",
    },
    last_status_code: {
      type: ["integer", "null"],
      description: "HTTP status of the last attempt; null when it got no answer (or none was made)",
    },
    last_error: { type: ["string", "null"], description: "why the last attempt failed; null otherwise" },
    created_at: { type: "string", description: "RFC 3339 UTC with Z" },
    updated_at: { type: "string", description: "RFC 3339 UTC with Z: the last attempt or change" },
  },
  { $id: "WebhookDelivery", description: "One event's delivery to a webhook endpoint, with its attempts" },
);

const webhookSchema = ref("Webhook");

/** The query of GET /v1/webhooks (issue 29): pages like GET /v1/wallets, by the last id of the previous page. */
const webhookPageQuery = {
  type: "object",
  properties: {
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_WEBHOOK_PAGE,
      description: `Page size (default and at most ${MAX_WEBHOOK_PAGE}).`,
    },
    after: {
      type: "string",
      maxLength: 100,
      description: "Only endpoints whose id sorts after this one (the last id of the previous page).",
    },
  },
  additionalProperties: false,
} as const;

const webhookPageHeaders = {
  Link: {
    description: 'The next page when more endpoints follow: `</v1/webhooks?limit=N&after=ID>; rel="next"`.',
    type: "string",
  },
} as const;

/** The Link header value naming the next page. */
const webhookNextLink = (limit: number, after: string): string =>
  `</v1/webhooks?limit=${limit}&after=${encodeURIComponent(after)}>; rel="next"`;
const deliverySchema = ref("WebhookDelivery");

const idParams = {
  type: "object",
  properties: { id: { type: "string", description: "the webhook id" } },
  required: ["id"],
} as const;

/** Registers the webhook routes. */
export function webhookRoutes(
  app: FastifyInstance,
  deps: {
    store: WebhookServiceDeps["store"] & Pick<Store, "findWebhook">;
    vault: Pick<Vault, "encryptSecret">;
    config: Pick<Config, "sandbox" | "webhookAllowPrivate" | "maxWebhooksPerAccount">;
    clock: () => Date;
    /** Host resolution of webhook URLs (tests); default the system resolver. */
    webhookLookup?: HostLookup;
  },
): void {
  const service: WebhookServiceDeps = {
    store: deps.store,
    vault: deps.vault,
    clock: deps.clock,
    allowPrivate: deps.config.sandbox || deps.config.webhookAllowPrivate,
    maxPerAccount: deps.config.maxWebhooksPerAccount,
    ...(deps.webhookLookup !== undefined ? { lookup: deps.webhookLookup } : {}),
  };

  app.post(
    "/v1/webhooks",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "Register a webhook endpoint; the signing secret is returned once",
        // Field types are in the OpenAPI document (openapi-body-types.ts); the domain parser validates.
        body: {
          type: "object",
          properties: {
            url: { description: "https or http URL; private, loopback and metadata addresses are refused" },
            types: { description: 'event types, e.g. ["execution.confirmed"], or ["*"] for all' },
            wallets: { description: "only events involving one of these wallets (default all)" },
          },
        },
        response: {
          201: closedObject(
            {
              ...webhookProps,
              secret: {
                type: "string",
                description: "whsec_...: verify signatures with it (Standard Webhooks)",
              },
            },
            { required: [...webhookRequired, "secret"] },
          ),
          400: errorSchema,
          403: ref("Refusal"),
          409: {
            ...errorSchema,
            description: "The account has MAX_WEBHOOKS_PER_ACCOUNT webhooks already (`max_webhooks`).",
          },
          ...authErrors,
        },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const body = req.body;
      if (typeof body !== "object" || body === null || Array.isArray(body))
        throw badRequest(EVENTS.webhookUrlInvalid);
      return reply.code(201).send(await createWebhook(service, key.id, body as Record<string, unknown>));
    },
  );

  app.get<{ Querystring: { limit?: number; after?: string } }>(
    "/v1/webhooks",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "This account's webhook endpoints (without secrets), oldest first, a page at a time",
        querystring: webhookPageQuery,
        response: {
          200: {
            ...closedObject({
              webhooks: {
                type: "array",
                items: webhookSchema,
                description: `up to \`limit\` (default and at most ${MAX_WEBHOOK_PAGE}) endpoints, oldest first`,
              },
            }),
            headers: webhookPageHeaders,
          },
          ...authErrors,
        },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const page = await webhookPage(deps.store, key.id, req.query);
      if (page.nextAfter !== null)
        void reply.header("Link", webhookNextLink(req.query.limit ?? MAX_WEBHOOK_PAGE, page.nextAfter));
      return { webhooks: page.webhooks };
    },
  );

  app.delete(
    "/v1/webhooks/:id",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "Delete a webhook endpoint and its deliveries",
        params: idParams,
        response: { 204: { type: "null" }, 404: errorSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const { id } = req.params as { id: string };
      await requireWebhook(deps.store, key.id, id);
      await deps.store.deleteWebhook(key.id, id);
      return reply.code(204).send();
    },
  );

  app.post(
    "/v1/webhooks/:id/test",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "Queue a webhook.test delivery to the endpoint",
        params: idParams,
        response: { 202: deliverySchema, 404: errorSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const { id } = req.params as { id: string };
      return reply.code(202).send(await queueTestDelivery(service, key.id, id));
    },
  );

  app.get(
    "/v1/webhooks/:id/deliveries",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "The endpoint's latest deliveries (up to 100), newest first",
        params: idParams,
        response: {
          200: closedObject({
            deliveries: { type: "array", items: deliverySchema, description: "newest first, at most 100" },
          }),
          404: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const key = requireApiKey(req);
      const { id } = req.params as { id: string };
      const w = await requireWebhook(deps.store, key.id, id);
      return { deliveries: (await deps.store.listDeliveries(w.id, 100)).map(deliveryView) };
    },
  );

  app.post(
    "/v1/webhooks/:id/deliveries/:delivery_id/retry",
    {
      schema: {
        tags: ["webhooks"],
        security: apiKeySecurity,
        summary: "Send a delivery again now (same webhook-id)",
        params: {
          type: "object",
          properties: {
            id: { type: "string", description: "the webhook id" },
            delivery_id: { type: "string", description: "the delivery id" },
          },
          required: ["id", "delivery_id"],
        },
        response: { 202: deliverySchema, 404: errorSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const { id, delivery_id } = req.params as { id: string; delivery_id: string };
      return reply.code(202).send(await retryDelivery(service, key.id, id, delivery_id));
    },
  );
}
