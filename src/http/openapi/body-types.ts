/**
 * Types for the OpenAPI document only. Request bodies are validated by the domain parsers (aliases,
 * number-or-string amounts, boolean strings, the spec's exact texts), so the route schemas describe their
 * fields without types. Generated clients need the types: this swagger `transform` adds them to the
 * document, keeping each route's own descriptions. Validation is untouched (Fastify never sees these).
 */
import type { FastifySchema } from "fastify";
import { FIELD } from "../../core/json-schema.js";
import type { ExecutionKindEntry } from "../../domain/execution/kind.js";
import { EVENT_TYPES } from "../../domain/events/query.js";
import { EXECUTION_KINDS, EXECUTION_STATUSES } from "../../domain/execution/history.js";

type Json = Record<string, unknown>;

const { str, address, bool, int } = FIELD;

/** Per route (method and URL): typed request body properties and required fields. */
const BODY_TYPES: Record<string, { properties: Json; required?: string[] }> = {
  // The execution kinds' bodies come from their descriptors (kindBody); these are the other routes'.
  "POST /v1/cashback/check": { properties: { wallet: address, wallets: { type: "array", items: address } } },
  // issue 18: warm venue state
  "POST /v1/watch": { properties: { mints: { type: "array", items: address } }, required: ["mints"] },
  // Issue 20: webhook endpoints.
  "POST /v1/webhooks": {
    properties: {
      url: str,
      types: {
        type: "array",
        minItems: 1,
        items: { type: "string", enum: ["*", ...EVENT_TYPES] },
      },
      wallets: { type: "array", items: address },
    },
    required: ["url", "types"],
  },
};

/** Typed query parameters (validated by parseHistoryQuery, which gives the service's own texts). */
const QUERY_TYPES: Record<string, Json> = {
  "GET /v1/executions": {
    // The parser's rules (EXECUTION.historyLimit / historyOffset), stated for generated clients.
    limit: { type: "integer", minimum: 1, maximum: 200 },
    offset: { type: "integer", minimum: 0 },
    wallet: address,
    kind: { type: "string", enum: [...EXECUTION_KINDS] },
    // Issue 30: the status filter, and the signature lookup the README named but the document did not.
    status: { type: "string", enum: [...EXECUTION_STATUSES] },
    signature: { type: "string", pattern: "^[1-9A-HJ-NP-Za-km-z]{64,88}$" },
    after: str,
  },
  // Issue 22: the trade's fields as a quote's query (aliases and rules in the route's descriptions).
  "GET /v1/quote": {
    mint: address,
    side: { type: "string", enum: ["buy", "sell"] },
    amount: str,
    amount_tokens: str,
    denominated_in_sol: bool,
    slippage: str,
    slippage_bps: int,
    pool: address,
  },
  // Issue 20: long-poll and the events page.
  "GET /v1/executions/:id": { wait: int },
  "GET /v1/events": {
    after: str,
    limit: int,
    types: str,
    wallet: address,
    kind: { type: "string", enum: [...EXECUTION_KINDS] },
  },
};

/** Adds types to documented-but-untyped properties, keeping the route's own descriptions. */
function typed(original: unknown, types: Json, required?: string[]): Json {
  const props = ((original as { properties?: Json } | undefined)?.properties ?? {}) as Json;
  const properties = Object.fromEntries(
    Object.entries(types).map(([name, type]) => [
      name,
      { ...(props[name] as Json | undefined), ...(type as Json) },
    ]),
  );
  return { type: "object", properties, ...(required !== undefined ? { required } : {}) };
}

/**
 * The swagger `transform`: the route's schema with typed request body and query for the document. An execution
 * kind's body is its descriptor's (issue 30: one description, with its examples).
 */
export function openapiBodyTypes({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: { method: string | string[]; config?: unknown };
}): { schema: FastifySchema; url: string } {
  const kind = (route.config as { kind?: ExecutionKindEntry } | undefined)?.kind;
  if (kind !== undefined && schema !== undefined) return { schema: { ...schema, body: kindBody(kind) }, url };
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  const id = `${String(method).toUpperCase()} ${url}`;
  const body = BODY_TYPES[id];
  const query = QUERY_TYPES[id];
  if (schema === undefined || (body === undefined && query === undefined)) return { schema, url };
  return {
    schema: {
      ...schema,
      ...(body !== undefined ? { body: typed(schema.body, body.properties, body.required) } : {}),
      ...(query !== undefined ? { querystring: typed(schema.querystring, query) } : {}),
    },
    url,
  };
}

/** A kind's body as the document states it: its typed, described fields, required ones and named examples. */
function kindBody(kind: ExecutionKindEntry): Json {
  const { properties, required } = kind.body;
  return {
    type: "object",
    properties,
    ...(required !== undefined ? { required: [...required] } : {}),
    // @fastify/swagger moves `x-examples` to the media type's `examples` (named Example Objects).
    ...(Object.keys(kind.examples).length > 0 ? { "x-examples": kind.examples } : {}),
  };
}
