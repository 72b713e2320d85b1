/**
 * Types for the OpenAPI document only. Request bodies are validated by the domain parsers (aliases,
 * number-or-string amounts, boolean strings, the spec's exact texts), so the route schemas describe their
 * fields without types. Generated clients need the types: this swagger `transform` adds them to the
 * document, keeping each route's own descriptions. Validation is untouched (Fastify never sees these).
 */
import type { FastifySchema } from "fastify";
import { FIELD, PATTERN, positiveIntPattern, present } from "../../core/json-schema.js";
import { EVENTS_MAX_LIMIT } from "../../domain/events/query.js";
import { MAX_WAIT_SECONDS } from "../../domain/events/wait.js";
import { MAX_WEBHOOK_PAGE } from "../../domain/webhooks/service.js";
import type { ExecutionKindEntry } from "../../domain/execution/kind.js";
import { EVENT_TYPES } from "../../domain/events/query.js";
import { EXECUTION_STATUSES } from "../../domain/execution/history.js";
import { orderBodySchema } from "../../domain/orders/body-schema.js";
import { ORDER_STATES } from "../../domain/orders/model.js";
import {
  LIST_VALUATIONS,
  PNL_GROUPS,
  POSITION_STATUSES,
  POSITIONS_MAX_LIMIT,
  VALUATIONS,
} from "../../domain/positions/query.js";

type Json = Record<string, unknown>;

const { str, address, bool } = FIELD;

/** Per route (method and URL): typed request body properties and required fields. */
const BODY_TYPES: Record<string, { properties: Json; required?: string[]; rules?: Json }> = {
  // The execution kinds' bodies come from their descriptors (kindBody); these are the other routes'.
  "POST /v1/cashback/check": {
    properties: { wallet: address, wallets: { type: "array", minItems: 1, maxItems: 100, items: address } },
    // wallet or wallets, not both.
    rules: { not: present("wallet", "wallets") },
  },
  "POST /v1/wallets/import": {
    properties: {
      private_key_base58: { type: "string", maxLength: 200, pattern: PATTERN.secretKey },
      set_default: bool,
    },
    required: ["private_key_base58"],
  },
  // issue 18: warm venue state
  "POST /v1/watch": {
    properties: { mints: { type: "array", minItems: 1, maxItems: 100, items: address } },
    required: ["mints"],
  },
  // Issue 20: webhook endpoints.
  "POST /v1/webhooks": {
    properties: {
      // The service also resolves the host: a private or unresolvable one is refused.
      url: { type: "string", maxLength: 2048, pattern: PATTERN.httpUrl },
      // ["*"] (every type), or 1 to 50 event types.
      types: {
        oneOf: [
          { type: "array", minItems: 1, maxItems: 1, items: { type: "string", enum: ["*"] } },
          { type: "array", minItems: 1, maxItems: 50, items: { type: "string", enum: [...EVENT_TYPES] } },
        ],
      },
      wallets: { type: "array", minItems: 1, maxItems: 100, items: address },
    },
    required: ["url", "types"],
  },
};

/** Bodies described whole by their capability (a body that is one of several variants). */
const WHOLE_BODIES: Record<string, () => Json> = {
  "POST /v1/orders": orderBodySchema,
};

/** A comma-separated list of 1 to 50 event types (`execution.confirmed,execution.failed`). */
const eventType = `(?:${EVENT_TYPES.map((t) => t.replace(/\./g, "\\.")).join("|")})`;
const EVENT_TYPES_PATTERN = `^${eventType}(?:,${eventType}){0,49}$`;

/**
 * Typed query parameters (validated by parseHistoryQuery, which gives the service's own texts); `kinds`: the words
 * executions are recorded under (the served kinds').
 */
const queryTypes = (kinds: readonly string[]): Record<string, Json> => ({
  "GET /v1/executions": {
    // The parser's rules (EXECUTION.historyLimit / historyOffset), stated for generated clients.
    limit: { type: "integer", minimum: 1, maximum: 200 },
    offset: { type: "integer", minimum: 0 },
    wallet: address,
    kind: { type: "string", enum: [...kinds] },
    // Issue 30: the status filter, and the signature lookup the README named but the document did not.
    status: { type: "string", enum: [...EXECUTION_STATUSES] },
    signature: { type: "string", pattern: "^[1-9A-HJ-NP-Za-km-z]{64,88}$" },
    // An opaque next_cursor: base64url text (what it decodes to is the service's).
    after: { type: "string", pattern: "^[A-Za-z0-9_-]{1,200}$" },
  },
  // Issue 22: the trade's fields as a quote's query (aliases and rules in the route's descriptions).
  "GET /v1/quote": {
    mint: address,
    side: { type: "string", enum: ["buy", "sell"] },
    // SOL or atomic units: a quote takes no percentage (it would depend on a wallet's balance).
    amount: { type: "string", pattern: PATTERN.sol },
    amount_tokens: { type: "string", pattern: PATTERN.wholeTokens },
    denominated_in_sol: bool,
    slippage: { type: "string", pattern: PATTERN.slippage },
    slippage_bps: FIELD.slippageBps,
    pool: address,
  },
  // Issue 20: long-poll and the events page.
  "GET /v1/executions/:id": { wait: { type: "integer", minimum: 0, maximum: MAX_WAIT_SECONDS } },
  "GET /v1/events": {
    after: { type: "integer", minimum: 0, maximum: 999_999_999_999_999 },
    limit: { type: "integer", minimum: 1, maximum: EVENTS_MAX_LIMIT },
    types: { type: "string", pattern: EVENT_TYPES_PATTERN },
    wallet: address,
    kind: { type: "string", enum: [...kinds] },
  },
});

/** The activity log's integer filters as text (next_cursor is text): positive, ids within a PostgreSQL integer. */
const activityId = { type: "string", pattern: positiveIntPattern(2_147_483_647) };

/** A date (midnight UTC) or an RFC 3339 time with its zone (the PnL period's bounds; parseInstant). */
const INSTANT = {
  type: "string",
  pattern:
    "^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d))?$",
};

/** Query types of the other paged reads. */
const PAGE_QUERY_TYPES: Record<string, Json> = {
  // Orders, positions and PnL: the parsers' rules (orders/service.ts listOrders, positions/query.ts).
  "GET /v1/orders": {
    state: { type: "string", enum: [...ORDER_STATES] },
    mint: address,
    limit: { type: "string", pattern: positiveIntPattern(500) },
  },
  "GET /v1/positions": {
    wallet: address,
    mint: address,
    status: { type: "string", enum: [...POSITION_STATUSES] },
    limit: { type: "string", pattern: positiveIntPattern(POSITIONS_MAX_LIMIT) },
    // An opaque next_cursor: base64url text (what it decodes to is the service's).
    after: { type: "string", pattern: "^[A-Za-z0-9_-]{1,200}$" },
    valuation: { type: "string", enum: [...LIST_VALUATIONS] },
  },
  "GET /v1/positions/:wallet/:mint": { valuation: { type: "string", enum: [...VALUATIONS] } },
  "GET /v1/pnl": { from: INSTANT, to: INSTANT, group_by: { type: "string", enum: [...PNL_GROUPS] } },
  "GET /v1/activity": {
    after: activityId,
    limit: { type: "string", pattern: positiveIntPattern(200) },
    key_id: activityId,
    target_key_id: activityId,
    route: str,
    status: { type: "string", pattern: positiveIntPattern(599) },
    rule: str,
  },
  "GET /v1/webhooks": {
    limit: { type: "integer", minimum: 1, maximum: MAX_WEBHOOK_PAGE },
    after: { type: "string", pattern: "^wh_[A-Za-z0-9-]{1,80}$" },
  },
};

/** Typed request headers (the events cursor: an event id, as ?after=). */
const HEADER_TYPES: Record<string, Json> = {
  "GET /v1/events": { "last-event-id": { type: "string", pattern: "^\\d{1,15}$" } },
};

/** Adds types to documented-but-untyped properties, keeping the route's own descriptions. */
function typed(original: unknown, types: Json, required?: string[], rules?: Json): Json {
  const props = ((original as { properties?: Json } | undefined)?.properties ?? {}) as Json;
  const properties = Object.fromEntries(
    Object.entries(types).map(([name, type]) => [
      name,
      { ...(props[name] as Json | undefined), ...(type as Json) },
    ]),
  );
  return { type: "object", properties, ...(required !== undefined ? { required } : {}), ...rules };
}

/**
 * The swagger `transform`: the route's schema with typed request body and query for the document. An execution
 * kind's body is its descriptor's (issue 30: one description, with its examples).
 */
export function openapiBodyTypes(
  {
    schema,
    url,
    route,
  }: {
    schema: FastifySchema;
    url: string;
    route: { method: string | string[]; config?: unknown };
  },
  /** The words executions are recorded under (the `?kind=` filters' enums). */
  kinds: readonly string[],
): { schema: FastifySchema; url: string } {
  const kind = (route.config as { kind?: ExecutionKindEntry } | undefined)?.kind;
  if (kind !== undefined && schema !== undefined) return { schema: { ...schema, body: kindBody(kind) }, url };
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  const id = `${String(method).toUpperCase()} ${url}`;
  const whole = WHOLE_BODIES[id];
  if (whole !== undefined && schema !== undefined) {
    const own = (schema.body ?? {}) as Json;
    const full = whole();
    // The route's own description stays; each field carries the description of the body's one source.
    schema = {
      ...schema,
      body: { ...full, ...(own.description !== undefined ? { description: own.description } : {}) },
    };
  }
  const body = BODY_TYPES[id];
  const query = queryTypes(kinds)[id] ?? PAGE_QUERY_TYPES[id];
  const headers = HEADER_TYPES[id];
  if (schema === undefined || (body === undefined && query === undefined && headers === undefined))
    return { schema, url };
  return {
    schema: {
      ...schema,
      ...(body !== undefined ? { body: typed(schema.body, body.properties, body.required, body.rules) } : {}),
      ...(query !== undefined ? { querystring: typed(schema.querystring, query) } : {}),
      ...(headers !== undefined ? { headers: typed(schema.headers, headers) } : {}),
    },
    url,
  };
}

/** A kind's body as the document states it: its typed, described fields, required ones and named examples. */
function kindBody(kind: ExecutionKindEntry): Json {
  const { properties, required, rules } = kind.body;
  return {
    type: "object",
    properties,
    ...(required !== undefined ? { required: [...required] } : {}),
    ...rules,
    // @fastify/swagger moves `x-examples` to the media type's `examples` (named Example Objects).
    ...(Object.keys(kind.examples).length > 0 ? { "x-examples": kind.examples } : {}),
  };
}
