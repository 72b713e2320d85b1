/**
 * The OpenAPI side of dry runs (issue 19): every execution route documents the `dry_run` body field and, as
 * an alternative 200 answer, the dry run's description (and the 403 refusal a run without it can get). Document only: the flag is parsed by
 * `parseDryRun` and a dry run's answer bypasses the route's response serializer (see execute-route.ts).
 */
import type { FastifySchema } from "fastify";
import { warningsSchema } from "../execute/execution-fields.js";
import { FIELD } from "../../core/json-schema.js";
import { ref } from "./schemas.js";

const str = { type: "string" } as const;
const lamports = { type: "string", description: "lamports, integer text" } as const;

/** One transaction a dry run would have sent (the `DryRunTransaction` component). */
export const dryRunTransactionComponent = {
  $id: "DryRunTransaction",
  type: "object",
  description: "One transaction a dry run would have sent, unsigned",
  properties: {
    leg: { type: "integer", nullable: true, description: "position in a bundle; null for one transaction" },
    fee_payer: { ...str, description: "the wallet paying the fee" },
    signers: { type: "array", items: str, description: "the wallets (and new mint) that would sign" },
    accounts: { type: "array", items: str, description: "the message's static account keys" },
    lookup_tables: { type: "array", items: str, description: "address lookup tables the message uses" },
    message_base64: { ...str, description: "the unsigned transaction message, base64" },
    compute_unit_limit: { type: "integer", description: "the compute budget's unit limit" },
    compute_unit_price_micro_lamports: { ...str, description: "the priority fee per compute unit" },
    signature_fee_lamports: lamports,
    priority_fee_lamports: lamports,
    tip: {
      type: "object",
      nullable: true,
      description: "the relay tip the transaction pays; null without one",
      properties: {
        account: { ...str, description: "the tip account" },
        lamports: { ...lamports, description: "the tip, lamports as integer text" },
      },
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
      description: "the RPC simulation of the transaction; null when it was not simulated",
      properties: {
        ok: { type: "boolean", description: "true when the simulation succeeded" },
        error: { ...str, nullable: true, description: "the simulation's error; null when ok" },
        units_consumed: { type: "integer", nullable: true, description: "compute units the simulation used" },
        logs: { type: "array", items: str, description: "the program logs" },
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

/** The answer of a dry run (the `DryRun` component). */
export const dryRunComponent = {
  $id: "DryRun",
  type: "object",
  description: 'The answer when the request carried "dry_run": true: nothing was sent or recorded.',
  properties: {
    dry_run: { type: "boolean", enum: [true], description: "always true: marks a dry run's answer" },
    policy: {
      type: "object",
      description: "what the key's policy would say to the request",
      properties: {
        allowed: { type: "boolean", description: "true when the policy would let it run" },
        rule: { ...str, nullable: true, description: "the policy field that would refuse the request" },
        detail: { ...str, nullable: true, description: "the refusal text the request would get (403)" },
      },
      required: ["allowed", "rule", "detail"],
    },
    requests: {
      type: "array",
      items: { type: "object", additionalProperties: true },
      description: "the request summaries of the executions that would have been recorded",
    },
    transactions: {
      type: "array",
      items: ref("DryRunTransaction"),
      description: "the transactions it would send, in send order",
    },
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
    'or recording anything (true or false, or the strings "true"/"false"; default false). A misspelling ' +
    "(dryRun, DRY_RUN, dry-run; likewise of simulate and confirm) is a 400, never ignored.",
};

const dryRun = ref("DryRun");
const refusal = ref("Refusal");

/** Issue 22: the per-request priority fee and tip every execution body accepts. */
const feeFields = {
  priority_fee: {
    ...FIELD.solOrZero,
    description:
      "SOL of priority fee per transaction (alias priorityFee, as PumpPortal's priorityFee), 0 or more, at most PRIORITY_FEE_MAX_SOL; " +
      "turned into the compute-unit price that makes the transaction's compute-unit limit pay exactly this. Default: the configured price.",
  },
  tip: {
    ...FIELD.sol,
    description:
      "SOL of relay tip per transaction, positive, at most TIP_MAX_SOL (on a bundle: the bundle's tip, alias of bundleTip). Default: the configured relay tip.",
  },
};

/** The swagger transform step: `dry_run` in the body and the dry-run answer beside the 200 of execute routes. */
export function dryRunDocument(
  out: { schema: FastifySchema; url: string },
  route: { method: string | string[]; config?: unknown },
): { schema: FastifySchema; url: string } {
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const kind = (route.config as { kind?: unknown } | undefined)?.kind;
  if (out.schema === undefined || method !== "POST" || kind === undefined) return out;
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
        200: response[200] === undefined ? dryRun : { oneOf: [response[200], dryRun] },
        // A policy or scope refusal (issue 19); a dry run reports policy breaches in its answer instead.
        403: response[403] ?? refusal,
      },
    },
  };
}
