/**
 * The OpenAPI side of dry runs (issue 19): every execution route documents the `dry_run` body field and, as
 * an alternative 200 answer, the dry run's description (and the 403 refusal a run without it can get). Document only: the flag is parsed by
 * `parseDryRun` and a dry run's answer bypasses the route's response serializer (see execute-route.ts).
 */
import type { FastifySchema } from "fastify";
import { EXECUTION_ROUTES } from "../domain/keys/spend.js";
import { warningsSchema } from "./execution-fields.js";

const str = { type: "string" } as const;
const lamports = { type: "string", description: "lamports, integer text" } as const;

/** One transaction a dry run would have sent. */
const dryRunTransaction = {
  type: "object",
  properties: {
    leg: { type: "integer", nullable: true, description: "position in a bundle; null for one transaction" },
    fee_payer: str,
    signers: { type: "array", items: str },
    accounts: { type: "array", items: str, description: "the message's static account keys" },
    lookup_tables: { type: "array", items: str },
    message_base64: { ...str, description: "the unsigned transaction message, base64" },
    compute_unit_limit: { type: "integer" },
    compute_unit_price_micro_lamports: str,
    signature_fee_lamports: lamports,
    priority_fee_lamports: lamports,
    tip: {
      type: "object",
      nullable: true,
      properties: { account: str, lamports },
      required: ["account", "lamports"],
    },
    details: {
      type: "object",
      nullable: true,
      additionalProperties: true,
      description: "what the endpoint would store with the execution (amounts, quote, venue)",
    },
    simulation: {
      type: "object",
      nullable: true,
      properties: {
        ok: { type: "boolean" },
        error: { ...str, nullable: true },
        units_consumed: { type: "integer", nullable: true },
        logs: { type: "array", items: str },
      },
      required: ["ok", "error", "units_consumed", "logs"],
    },
  },
  required: [
    "leg",
    "fee_payer",
    "signers",
    "accounts",
    "lookup_tables",
    "message_base64",
    "compute_unit_limit",
    "compute_unit_price_micro_lamports",
    "signature_fee_lamports",
    "priority_fee_lamports",
    "tip",
    "details",
    "simulation",
  ],
} as const;

/** The answer of a dry run. */
export const dryRunResponse = {
  type: "object",
  description: 'The answer when the request carried "dry_run": true: nothing was sent or recorded.',
  properties: {
    dry_run: { type: "boolean", enum: [true] },
    policy: {
      type: "object",
      properties: {
        allowed: { type: "boolean" },
        rule: { ...str, nullable: true, description: "the policy field that would refuse the request" },
        detail: { ...str, nullable: true, description: "the refusal text the request would get (403)" },
      },
      required: ["allowed", "rule", "detail"],
    },
    requests: { type: "array", items: { type: "object", additionalProperties: true } },
    transactions: { type: "array", items: dryRunTransaction },
    priority_fee_lamports: {
      ...lamports,
      description: "the request's own priority_fee per transaction, when it set one (issue 22)",
    },
    tip_lamports: { ...lamports, description: "the request's own tip per transaction, when it set one" },
    warnings: warningsSchema,
  },
  required: ["dry_run", "policy", "requests", "transactions"],
} as const;

const dryRunField = {
  type: "boolean",
  description:
    "Resolve, read, quote, check policies and simulate, then answer what would be sent without sending " +
    'or recording anything (true or false, or the strings "true"/"false"; default false).',
};

/** A policy or scope refusal (issue 19); a dry run reports policy breaches in its answer instead. */
const refusalResponse = {
  type: "object",
  description: "Refused by the key's scope, wallet binding, freeze or policy (`rule` names which)",
  properties: { detail: str, rule: str },
  required: ["detail"],
} as const;

const amount = { oneOf: [{ type: "string" }, { type: "number" }] } as const;

/** Issue 22: the per-request priority fee and tip every execution body accepts. */
const feeFields = {
  priority_fee: {
    ...amount,
    description:
      "SOL of priority fee per transaction (alias priorityFee, as PumpPortal's priorityFee), 0 or more, at most PRIORITY_FEE_MAX_SOL; " +
      "turned into the compute-unit price that makes the transaction's compute-unit limit pay exactly this. Default: the configured price.",
  },
  tip: {
    ...amount,
    description:
      "SOL of relay tip per transaction, positive, at most TIP_MAX_SOL (on a bundle: the bundle's tip, alias of bundleTip). Default: the configured relay tip.",
  },
};

const EXECUTION_URLS = new Set<string>(Object.keys(EXECUTION_ROUTES));

/** The swagger transform step: `dry_run` in the body and the dry-run answer beside the 200 of execute routes. */
export function dryRunDocument(
  out: { schema: FastifySchema; url: string },
  route: { method: string | string[] },
): { schema: FastifySchema; url: string } {
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  if (out.schema === undefined || method !== "POST" || !EXECUTION_URLS.has(out.url)) return out;
  const body = (out.schema.body ?? { type: "object", properties: {} }) as {
    properties?: Record<string, unknown>;
  };
  const response = (out.schema.response ?? {}) as Record<string, unknown>;
  return {
    ...out,
    schema: {
      ...out.schema,
      body: { ...body, properties: { ...body.properties, dry_run: dryRunField, ...feeFields } },
      response: {
        ...response,
        200: response[200] === undefined ? dryRunResponse : { oneOf: [response[200], dryRunResponse] },
        403: response[403] ?? refusalResponse,
      },
    },
  };
}
