/**
 * Types for the OpenAPI document only. Request bodies are validated by the domain parsers (aliases,
 * number-or-string amounts, boolean strings, the spec's exact texts), so the route schemas describe their
 * fields without types. Generated clients need the types: this swagger `transform` adds them to the
 * document, keeping each route's own descriptions. Validation is untouched (Fastify never sees these).
 */
import type { FastifySchema } from "fastify";
import { BASE58_ADDRESS } from "../../config/parse.js";
import { EVENT_TYPES } from "../../domain/events/query.js";
import { EXECUTION_KINDS, EXECUTION_STATUSES } from "../../domain/execution/history.js";

type Json = Record<string, unknown>;

const str = { type: "string" } as const;
/** A base58 address (mint, wallet, destination, pool): the parsers refuse anything else (issue 30: stated). */
const address = { type: "string", pattern: BASE58_ADDRESS.source } as const;
/** A mint, or `SOL` in any case with surrounding spaces (send asset: the parser trims and upper-cases it). */
const mintOrSol = {
  type: "string",
  pattern: `^\\s*[Ss][Oo][Ll]\\s*$|${BASE58_ADDRESS.source}`,
} as const;
const bool = { type: "boolean" } as const;
/** Whole tokens (`amount_tokens`, issue 30): decimal text, or a JSON number. */
const wholeTokens = { oneOf: [{ type: "string" }, { type: "number" }] } as const;
const int = { type: "integer" } as const;
/** Amounts are exact decimal text; a JSON number is accepted too. */
const amount = { oneOf: [{ type: "string" }, { type: "number" }] } as const;
/** u64 integers (fee_reserve_lamports): a digit string keeps values above 2^53 exact. */
const bigInteger = { oneOf: [{ type: "string" }, { type: "integer" }] } as const;

const createFields = {
  name: str,
  symbol: str,
  uri: str,
  wallet: address,
  mayhem_mode: bool,
  cashback: bool,
  initial_buy: amount,
  slippage: amount,
};

const bundleLeg = {
  type: "object",
  properties: {
    type: { type: "string", enum: ["create", "buy", "sell"] },
    ...createFields,
    amount,
    denominatedInSol: bool,
    slippageBps: int,
    pool: address,
  },
  required: ["type"],
};

/** Per route (method and URL): typed request body properties and required fields. */
const BODY_TYPES: Record<string, { properties: Json; required?: string[] }> = {
  "POST /v1/trades/execute": {
    properties: {
      action: { type: "string", enum: ["buy", "sell"] },
      mint: address,
      pool: address,
      amount,
      amount_tokens: wholeTokens,
      denominated_in_sol: bool,
      slippage: amount,
      slippage_bps: int,
      simulate: bool,
      confirm: bool,
      measure_timing: bool,
      wallet: address,
      // Racing (ROUTES): "all" or route names; mev_protect keeps only routes that protect from sandwiching.
      routes: {
        oneOf: [
          { type: "string", enum: ["all"] },
          { type: "array", items: str },
        ],
      },
      mev_protect: bool,
    },
    // amount or amount_tokens (issue 30): exactly one, checked by the parser.
    required: ["action", "mint"],
  },
  "POST /v1/laser/create": {
    properties: { ...createFields, confirm: bool },
    required: ["name", "symbol", "uri"],
  },
  "POST /v1/laser/bundle": {
    properties: {
      accounts: { type: "array", items: bundleLeg },
      mint: address,
      bundleTip: amount,
      confirm: bool,
    },
    required: ["accounts", "bundleTip"],
  },
  "POST /v1/cashback/check": { properties: { wallet: address, wallets: { type: "array", items: address } } },
  "POST /v1/cashback/claim/execute": {
    properties: { wallet: address, claim_bonding_curve: bool, claim_launchswap: bool, confirm: bool },
  },
  "POST /v1/sol/consolidate/execute": {
    properties: {
      destination_wallet: address,
      source_wallets: { type: "array", items: address },
      fee_reserve_lamports: bigInteger,
      confirm: bool,
    },
    required: ["destination_wallet"],
  },
  "POST /v1/sol/transfer/execute": {
    properties: {
      destination_wallet: address,
      source_wallet: address,
      mint: mintOrSol,
      amount,
      amount_tokens: wholeTokens,
      fee_reserve_lamports: bigInteger,
      confirm: bool,
    },
    required: ["destination_wallet"],
  },
  "POST /v1/sol/split/execute": {
    properties: {
      source_wallet: address,
      total_percent: amount,
      fee_reserve_lamports: bigInteger,
      destinations: {
        type: "array",
        items: {
          type: "object",
          properties: { wallet: address, sol: amount, percent: amount },
          required: ["wallet"],
        },
      },
      confirm: bool,
    },
    required: ["destinations"],
  },
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

/** The swagger `transform`: the route's schema with typed request body and query for the document. */
export function openapiBodyTypes({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: { method: string | string[] };
}): { schema: FastifySchema; url: string } {
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
