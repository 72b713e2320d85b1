/** GET /v1/activity: the account's append-only activity log (scope `keys`). */
import type { FastifyInstance } from "fastify";
import { listActivity, parseActivityQuery } from "../../domain/keys/activity.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "../hooks/auth.js";
import {
  apiKeySecurity,
  authErrors,
  errorSchema,
  ref,
  closedObject,
  documentedFields,
} from "../openapi/schemas.js";

const activitySchema = closedObject({
  id: { type: "integer", description: "the entry's id (increasing)" },
  at: { type: "string", description: "RFC 3339 UTC with Z" },
  key_id: { type: "integer", description: "the key that made the request" },
  key_name: { type: "string", description: "that key's name" },
  method: { type: "string", description: "HTTP method" },
  route: { type: "string", description: "the route pattern, e.g. /v1/keys/:id" },
  wallets: {
    type: "array",
    items: { type: "string" },
    description: "the wallets the request named or used",
  },
  execution_id: { type: ["string", "null"], description: "the execution it recorded; null when none" },
  status: { type: "integer", description: "HTTP status of the response" },
  rule: { type: ["string", "null"], description: "scope, wallet, frozen, expired or the policy field" },
  ip: { type: ["string", "null"], description: "the client address; null when unknown" },
  refusals: {
    type: "integer",
    description:
      "how many requests the entry stands for: 1, or on a refusal entry the refusals of this key, route and " +
      "rule since the previous entry (refusals are sampled: entries at the 1st, 2nd, 4th, 8th… of a window)",
  },
  target_key_id: {
    type: ["integer", "null"],
    description:
      "the key a /v1/keys/{id} request acted on (freeze, unfreeze, revoke, policy); null otherwise",
  },
});

/** Registers GET /v1/activity. */
export function activityRoutes(app: FastifyInstance, deps: { store: Pick<Store, "listActivity"> }): void {
  app.get<{ Querystring: Record<string, unknown> }>(
    "/v1/activity",
    {
      config: { scope: "keys" },
      schema: {
        tags: ["keys"],
        security: apiKeySecurity,
        summary: "The account's activity log, newest first (cursor: ?after=<next_cursor>)",
        querystring: documentedFields({
          after: { type: "string", description: "next_cursor of the previous page" },
          limit: { type: "string", description: "1 to 200, default 50" },
          key_id: { type: "string" },
          target_key_id: { type: "string", description: "only requests that acted on this key" },
          route: { type: "string" },
          status: { type: "string" },
          rule: { type: "string" },
        }),
        response: {
          200: closedObject({
            activity: { type: "array", items: activitySchema, description: "newest first" },
            next_cursor: {
              type: ["string", "null"],
              description: "pass as ?after= for the next (older) page; null on the last page",
            },
          }),
          400: errorSchema,
          403: ref("Refusal"),
          ...authErrors,
        },
      },
    },
    async (req) => listActivity(deps, parseActivityQuery(requireApiKey(req).id, req.query)),
  );
}
