/**
 * The rules every route shares, stated in the OpenAPI document (issue 23): an operationId and a description
 * on every operation, the statuses any route can answer (413, 415 on bodies; 429 with Retry-After on every
 * budgeted route; 421 with ALLOWED_HOSTS), `Idempotent-Replayed` on replayable answers, and the address
 * pattern of path parameters. Document only: validation stays with the parsers (their exact texts).
 */
import type { FastifySchema } from "fastify";
import { BASE58_ADDRESS } from "../../config/parse.js";
import { ERROR_STATUSES, errorSchema, ref } from "./schemas.js";

type Json = Record<string, unknown>;

const retryAfter = {
  "Retry-After": { type: "integer", minimum: 1, description: "Seconds until the budget's window ends." },
} as const;

const withDescription = (schema: Json, description: string): Json => ({ ...schema, description });

/** The common error answers, by status. */
const COMMON_ERRORS: Record<string, Json> = {
  "400": withDescription(errorSchema, "The URL, query or body is malformed, or a field breaks its rule."),
  "500": withDescription(ref("ServerError"), "An unexpected error; request_id names it in the service log."),
  "413": withDescription(errorSchema, "The body exceeds 64 KiB."),
  "415": withDescription(errorSchema, "The body is not application/json."),
  "421": withDescription(errorSchema, "The Host header is not one of ALLOWED_HOSTS (when set)."),
  "429": {
    ...withDescription(
      errorSchema,
      "A request budget of this key, its account (all its keys) or the client IP is spent; retry after " +
        "Retry-After.",
    ),
    headers: retryAfter,
  },
};

/** `POST /v1/wallets/:public_key` → `postV1WalletsByPublicKey`: stable, unique per method and path. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (s.startsWith(":") ? `by_${s.slice(1)}` : s))
    .join("_")
    .split(/[_\-.]/)
    .filter((w) => w !== "");
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

const ADDRESS_PATTERN = BASE58_ADDRESS.source;
/** A key id (parseKeyId: an integer from 1 to 999 999 999). */
const KEY_ID_PATTERN = "^[1-9][0-9]{0,8}$";

/**
 * The Idempotency-Key header's rule (parseIdempotencyKey: 1 to 255 printable ASCII characters), stated in the
 * document only: the route's own header schema stays as Fastify validates it, so the parser's text answers.
 */
function idempotencyKeyRule(headers: Json | undefined): { headers?: Json } {
  const properties = headers?.properties as Record<string, Json> | undefined;
  const key = properties?.["idempotency-key"];
  if (key === undefined) return {};
  return {
    headers: {
      ...headers,
      properties: {
        ...properties,
        "idempotency-key": { ...key, minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]{1,255}$" },
      },
    },
  };
}

/**
 * Path parameters stated without the address pattern: a wallet path that is no address answers 404 wallet not
 * found there (the same answer as an unknown wallet), not 400, so the document allows any text and states the 404.
 */
const ANY_TEXT_WALLET_PATHS: readonly string[] = [
  "DELETE /v1/wallets/:public_key",
  "PUT /v1/wallets/:public_key/default",
];

/** Routes whose body may be left out (every field optional; an empty body means "no fields"). */
const OPTIONAL_BODIES: readonly string[] = [
  "post /v1/wallets",
  "post /v1/cashback/check",
  "post /v1/cashback/claim/execute",
];

/**
 * Marks the optional request bodies `required: false` in the finished document: @fastify/swagger marks every
 * body required, but the service answers a request without one as it answers `{}` (json-body.ts).
 */
export function withOptionalBodies<D>(doc: D): D {
  const paths = (doc as { paths?: Record<string, Record<string, Json>> }).paths ?? {};
  for (const id of OPTIONAL_BODIES) {
    const [method, path] = id.split(" ") as [string, string];
    const body = paths[path]?.[method]?.requestBody as Json | undefined;
    if (body !== undefined) body.required = false;
  }
  return doc;
}

/** Adds the shared rules to one route's document schema. */
export function openapiRules(
  schema: FastifySchema,
  url: string,
  method: string,
  config: { idempotent?: boolean; public?: boolean } | undefined,
): FastifySchema {
  const s = schema as Json;
  const responses = { ...((s.response as Json | undefined) ?? {}) };
  // Any method but GET/HEAD may carry a body (a DELETE with one is parsed too).
  const hasBody = method !== "GET" && method !== "HEAD";
  for (const [status, body] of Object.entries(COMMON_ERRORS)) {
    // 400 on every route: a malformed URL or query string as well as a bad body.
    if (!hasBody && (status === "413" || status === "415")) continue;
    responses[status] ??= body;
  }
  // Every authenticated route can refuse a key by its scope, wallet binding, freeze or policy (issue 19).
  if (config?.public !== true) {
    responses["403"] ??= withDescription(
      ref("Refusal"),
      "The key may not do this: `rule` is scope, wallet, frozen, root, or the policy field that refused it.",
    );
  }
  // Issue 30: each status's error body names the codes that status can come with (`Error404`, …).
  for (const [status, body] of Object.entries(responses)) {
    const r = body as Json;
    if (r.$ref === "Error#" && ERROR_STATUSES.includes(Number(status)))
      responses[status] = { ...r, $ref: `Error${status}#` };
  }
  // A success answer without its own description is described by the route's summary (not "Default Response").
  const summaryText = typeof s.summary === "string" ? s.summary : undefined;
  for (const [status, body] of Object.entries(responses)) {
    const r = body as Json;
    if (/^2\d\d$/.test(status) && summaryText !== undefined && typeof r.description !== "string")
      responses[status] = { ...r, description: summaryText };
  }
  // A route's own 429 (setup's one-per-5-s rule) carries Retry-After too.
  const tooMany = responses["429"] as Json;
  if (tooMany.headers === undefined) responses["429"] = { ...tooMany, headers: retryAfter };
  if (config?.idempotent === true && responses["200"] !== undefined) {
    const ok = responses["200"] as Json;
    responses["200"] = {
      ...ok,
      headers: {
        ...((ok.headers as Json | undefined) ?? {}),
        "Idempotent-Replayed": {
          type: "string",
          enum: ["true"],
          description: "Present when this answer replays the first request with the same Idempotency-Key.",
        },
      },
    };
  }
  const params = s.params as Json | undefined;
  const properties = params?.properties as Record<string, Json> | undefined;
  // Issue 30: a key id is a positive integer and a watched mint an address, as their parsers require.
  const patterns: Record<string, string> = {
    ...(ANY_TEXT_WALLET_PATHS.includes(`${method} ${url}`) ? {} : { public_key: ADDRESS_PATTERN }),
    ...(url.startsWith("/v1/keys/") ? { id: KEY_ID_PATTERN } : {}),
    ...(url.startsWith("/v1/watch/") ? { mint: ADDRESS_PATTERN } : {}),
    ...(url.startsWith("/v1/positions/") ? { wallet: ADDRESS_PATTERN, mint: ADDRESS_PATTERN } : {}),
  };
  const stated = Object.keys(patterns).filter((k) => properties?.[k] !== undefined);
  const typedParams =
    stated.length > 0
      ? {
          params: {
            ...params,
            properties: {
              ...properties,
              ...Object.fromEntries(
                stated.map((k) => [k, { ...properties![k], type: "string", pattern: patterns[k] }]),
              ),
            },
          },
        }
      : {};
  const summary = typeof s.summary === "string" ? s.summary : `${method} ${url}`;
  return {
    ...schema,
    ...typedParams,
    ...idempotencyKeyRule(s.headers as Json | undefined),
    // A public route says so: no security requirement (the linter's security-defined rule).
    ...(config?.public === true && s.security === undefined ? { security: [] } : {}),
    operationId: (s.operationId as string | undefined) ?? operationIdOf(method, url),
    description: (s.description as string | undefined) ?? summary,
    response: responses,
  } as FastifySchema;
}
