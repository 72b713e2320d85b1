/** /v1/keys: sub-keys with scopes, wallet binding and expiry; revoke, freeze, policy (issue 19). */
import { FIELD } from "../../core/json-schema.js";
import { VENUES } from "../../core/venues.js";
import type { FastifyInstance } from "fastify";
import {
  createSubKey,
  listKeys,
  parseKeyId,
  revokeKey,
  setKeyFrozen,
  setKeyPolicy,
  type KeysDeps,
} from "../../domain/keys/keys.js";
import { SCOPES } from "../../domain/keys/scopes.js";
import { requireApiKey, requireCustodyKey } from "../hooks/auth.js";
import { withRequestStore } from "../hooks/custody.js";
import { apiKeySecurity, authErrors, errorSchema, ref, closedObject } from "../openapi/schemas.js";

const addresses = { type: "array", items: { type: "string" } } as const;

/** The policy object (PUT body and key field); SOL fields as decimal text, lamports as integer text. */
export const policySchema = {
  type: "object",
  description: "Limits on what a key may do; an absent field is no limit ({} = none)",
  properties: {
    max_sol_per_execution: { type: "string", description: "SOL; a request moving more is refused" },
    max_sol_per_24h: {
      type: "string",
      description:
        "SOL over a rolling 24 h: amounts, fees, tips, priority fees and rent spent through this key",
    },
    max_priority_fee_lamports: { type: "string", description: "lamports per transaction" },
    max_tip_lamports: { type: "string", description: "lamports per request" },
    venues: {
      type: "array",
      items: { type: "string", enum: [...VENUES] },
      description: "only trades on these venues",
    },
    mints_allow: { ...addresses, description: "only these mints may be traded" },
    mints_deny: { ...addresses, description: "these mints may not be traded" },
    destinations_allow: {
      ...addresses,
      description: "addresses outside the account's own wallets that transfer/consolidate/split may pay",
    },
  },
  additionalProperties: false,
} as const;

/** Described, untyped: the domain parser applies the rules and texts (and Fastify would drop unknown fields). */
const policyBody = {
  type: "object",
  properties: Object.fromEntries(
    Object.entries(policySchema.properties).map(([k, v]) => [
      k,
      { description: "description" in v ? v.description : k },
    ]),
  ),
} as const;

const createBody = {
  type: "object",
  properties: {
    name: { description: "1 to 64 characters" },
    scopes: { description: `non-empty array of: ${SCOPES.join(", ")}` },
    wallets: { description: "only these wallets of the account; all when absent" },
    expires_at: {
      description: "ISO 8601 date-time with zone; past it the key gets 401 (default: the creator's expiry)",
    },
    policy: {
      description: "the starting policy, at least as strict as the creator's (default: the creator's policy)",
    },
  },
} as const;

/** Up to 100 base58 addresses (the policy parser's bound). */
const addressList = { type: "array", maxItems: 100, items: FIELD.address } as const;

/** A policy as a request gives it (PUT body, the `policy` of POST /v1/keys): amounts as text or numbers. */
const policyInputType = {
  type: "object",
  properties: {
    ...policySchema.properties,
    max_sol_per_execution: FIELD.sol,
    max_sol_per_24h: FIELD.sol,
    max_priority_fee_lamports: FIELD.bigInteger,
    max_tip_lamports: FIELD.bigInteger,
    venues: { ...policySchema.properties.venues, minItems: 1 },
    mints_allow: { ...policySchema.properties.mints_allow, ...addressList },
    mints_deny: { ...policySchema.properties.mints_deny, ...addressList },
    destinations_allow: { ...policySchema.properties.destinations_allow, ...addressList },
  },
} as const;

/** An ISO 8601 date-time with a zone (keys.ts parseExpiry). */
const EXPIRES_AT_PATTERN =
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$";

/** The typed request bodies of these routes, for the OpenAPI document only (see openapi-body-types.ts). */
export const keyBodyTypes: Record<string, { type: "object"; properties: object; required?: string[] }> = {
  "PUT /v1/keys/:id/policy": policyInputType,
  "POST /v1/keys": {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 64, pattern: "\\S" },
      scopes: { type: "array", minItems: 1, items: { type: "string", enum: [...SCOPES] } },
      wallets: { type: "array", minItems: 1, maxItems: 100, items: FIELD.address },
      // With a zone; that it lies in the future is the parser's (JSON Schema has no clock).
      expires_at: { type: "string", format: "date-time", pattern: EXPIRES_AT_PATTERN },
      policy: policyInputType,
    },
    required: ["name", "scopes"],
  },
};

/** The `Policy` component (the key field; the PUT body is described separately below). */
export const policyComponent = { $id: "Policy", ...policySchema } as const;

const keyProperties = {
  id: { type: "integer", description: "the key id (/v1/keys/{id})" },
  name: { type: "string", description: "the name given at creation" },
  root: { type: "boolean", description: "true for the account's root key (from setup)" },
  scopes: {
    type: "array",
    items: { type: "string", enum: [...SCOPES] },
    description: "what the key may do",
  },
  wallets: {
    type: ["array", "null"],
    items: { type: "string" },
    description: "the only wallets the key may use; null = every wallet of the account",
  },
  expires_at: {
    type: ["string", "null"],
    description: "ISO 8601: the key is refused after it; null = never",
  },
  frozen: { type: "boolean", description: "true while every write of the key is refused (reads stay open)" },
  policy: ref("Policy"),
  created_at: { type: "string", description: "RFC 3339 UTC with Z" },
  created_by: {
    type: ["integer", "null"],
    description:
      "the id of the key that created this one (the root key's id for its keys; null for the root key): a key is held to every key above it",
  },
} as const;
const keyRequired = [
  "id",
  "name",
  "root",
  "scopes",
  "wallets",
  "expires_at",
  "frozen",
  "policy",
  "created_at",
  "created_by",
];

/** An API key without its secret (the `Key` component). */
export const keyComponent = closedObject(keyProperties, {
  $id: "Key",
  description: "An API key of the account (never its secret)",
  required: keyRequired,
});

/** A key just created: its secret, shown once (the `NewKey` component). */
export const newKeyComponent = closedObject(
  {
    ...keyProperties,
    api_key: { type: "string", description: "the key's secret, sent as x-api-key (shown once)" },
  },
  {
    $id: "NewKey",
    description: "A key just created, with its api_key (shown once: store it)",
    required: [...keyRequired, "api_key"],
  },
);

const keySchema = ref("Key");

const idParams = {
  type: "object",
  properties: { id: { type: "string", description: "key id" } },
  required: ["id"],
} as const;

const refusals = { 403: ref("Refusal"), ...authErrors } as const;
const common = { tags: ["keys"], security: apiKeySecurity } as const;

/** Registers the key management routes (scope `keys`). */
export function keyRoutes(app: FastifyInstance, deps: KeysDeps): void {
  app.post(
    "/v1/keys",
    {
      config: { scope: "keys" },
      schema: {
        ...common,
        summary: "Create a sub-key (its api_key is shown once)",
        description:
          "The new key's scopes, wallets, policy and expiry must lie within the caller's own (403 `powers`).",
        body: createBody,
        response: {
          201: ref("NewKey"),
          400: errorSchema,
          409: { ...errorSchema, description: "The account holds MAX_KEYS_PER_ACCOUNT sub-keys already." },
          ...refusals,
        },
      },
    },
    async (req, reply) => {
      const created = await createSubKey(withRequestStore(req, deps), requireCustodyKey(req), req.body);
      void reply.header("Cache-Control", "no-store");
      return reply.status(201).send(created);
    },
  );

  app.get(
    "/v1/keys",
    {
      config: { scope: "keys" },
      schema: {
        ...common,
        summary: "List the account's keys (no secrets; revoked keys are gone)",
        response: {
          200: closedObject(
            { keys: { type: "array", items: keySchema, description: "every unrevoked key" } },
            { required: ["keys"] },
          ),
          ...refusals,
        },
      },
    },
    async (req) => listKeys(withRequestStore(req, deps), requireApiKey(req).id),
  );

  app.delete<{ Params: { id: string } }>(
    "/v1/keys/:id",
    {
      config: { scope: "keys" },
      schema: {
        ...common,
        summary: "Revoke a sub-key (refused at once in every process)",
        params: idParams,
        response: { 200: keySchema, 400: errorSchema, 404: errorSchema, ...refusals },
      },
    },
    async (req) => revokeKey(withRequestStore(req, deps), requireCustodyKey(req), parseKeyId(req.params.id)),
  );

  for (const action of ["freeze", "unfreeze"] as const) {
    app.post<{ Params: { id: string } }>(
      `/v1/keys/:id/${action}`,
      {
        config: { scope: "keys" },
        schema: {
          ...common,
          summary:
            action === "freeze"
              ? "Freeze a key (every write refused; its reads stay open)"
              : "Unfreeze a key",
          params: idParams,
          response: { 200: keySchema, 400: errorSchema, 404: errorSchema, ...refusals },
        },
      },
      async (req) =>
        setKeyFrozen(
          withRequestStore(req, deps),
          requireCustodyKey(req),
          parseKeyId(req.params.id),
          action === "freeze",
        ),
    );
  }

  app.put<{ Params: { id: string } }>(
    "/v1/keys/:id/policy",
    {
      config: { scope: "keys" },
      schema: {
        ...common,
        summary: "Replace a key's policy ({} clears it)",
        params: idParams,
        body: policyBody,
        response: { 200: keySchema, 400: errorSchema, 404: errorSchema, ...refusals },
      },
    },
    async (req) =>
      setKeyPolicy(withRequestStore(req, deps), requireCustodyKey(req), parseKeyId(req.params.id), req.body),
  );
}
