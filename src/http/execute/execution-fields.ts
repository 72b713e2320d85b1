/**
 * Issue 22 item 5 on every execution route: the per-request `priority_fee` / `tip` (parsed and bounded
 * before custody, so its policy sees them; refused only on a body the endpoint's own rules accept) and the
 * unknown-field warnings (`warnings` in the 200 answer) or, with STRICT_FIELDS=true, the 400; an unknown field
 * that is a misspelt safety switch (`dryRun`) is a 400 whatever STRICT_FIELDS says (issue 29).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RequestFeeSettings } from "../../config/request-fees.js";
import { badRequest, EXECUTION, REQUEST_FEES } from "../../core/errors.js";
import { parseRequestFees, type RequestFees } from "../../core/fee-fields.js";
import type { RequestBody } from "../../core/request-fields.js";
import type { ExecutionKindEntry } from "../../domain/execution/kind.js";
import { knownFieldsTable } from "./known-fields.js";

/**
 * An execution request's body, parsed once by its kind's parser (issue 30): the intent travels to the policy
 * step (custody's spend plan) and the run; a body its parser refused keeps the 400, thrown where the kind's
 * run would have parsed it (after the chain and fee checks), so the answers keep their order.
 */
export interface ParsedExecution {
  kind: ExecutionKindEntry;
  /** Whether the parser accepted the body (then `intent` is its result, else `error` its refusal). */
  ok: boolean;
  intent: unknown;
  error: unknown;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The request's own priority fee and tip (execution routes; null elsewhere). */
    requestFees: RequestFees | null;
    /** `unknown field "x" ignored` per field the route does not read (execution routes; null elsewhere). */
    bodyWarnings: string[] | null;
    /** The execution request's parsed body (execution routes; null elsewhere). */
    execution: ParsedExecution | null;
  }
  interface FastifyContextConfig {
    /** The execution kind an execute route serves (set by its registration). */
    kind?: ExecutionKindEntry;
  }
}

/** The `warnings` field of an execution answer. */
export const warningsSchema = {
  type: "array",
  items: { type: "string" },
  description:
    'Present when the body carried fields this endpoint does not read, one `unknown field "<name>" ignored` each (with STRICT_FIELDS=true such a body is a 400 instead)',
} as const;

/** The parsed intent of an execution request, or the parser's 400 (thrown here, where the run starts). */
export function intentOf(req: FastifyRequest): unknown {
  const parsed = req.execution;
  if (parsed === null)
    throw new Error("execution: the body was asked for before the execution hook parsed it");
  if (!parsed.ok) throw parsed.error;
  return parsed.intent;
}

/** Declares the request fields the hook sets (null until it does); see declareRequestFields in app.ts. */
export function declareExecutionFields(app: FastifyInstance): void {
  app.decorateRequest("requestFees", null);
  app.decorateRequest("bodyWarnings", null);
  app.decorateRequest("execution", null);
}

/**
 * Installs the hook (before custody, which reads the parsed body and `requestFees`) and documents `warnings` on
 * each route of `kinds`.
 */
export function installExecutionFields(
  app: FastifyInstance,
  settings: RequestFeeSettings,
  kinds: readonly ExecutionKindEntry[],
): void {
  const paths = new Set(kinds.map((k) => k.path));
  const known = knownFieldsTable(kinds);
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") || !paths.has(route.url)) return;
    const response = (route.schema?.response ?? {}) as Record<string, { properties?: object } | undefined>;
    const ok = response[200];
    if (route.schema === undefined || ok?.properties === undefined) return;
    // The response schema is a whitelist: without the property the serializer would drop the warnings.
    route.schema = {
      ...route.schema,
      response: { ...response, 200: { ...ok, properties: { ...ok.properties, warnings: warningsSchema } } },
    };
  });
  // A callback hook (nothing is awaited; an async hook costs a promise on every request); done is called
  // outside the try, so an error of a later step is never taken for this hook's.
  app.addHook("preHandler", (req, _reply, done) => {
    let error: Error | undefined;
    try {
      readExecutionFields(req, settings, known);
    } catch (e) {
      error = e as Error;
    }
    done(error);
  });
}

/** The kind's parse of `body`, once: its intent, or its refusal kept for the run. */
function parseOnce(kind: ExecutionKindEntry, body: unknown, settings: RequestFeeSettings): ParsedExecution {
  try {
    // A required body that is not an object: the service's own text (the parsers read fields of an object).
    if (kind.body.optional !== true && (typeof body !== "object" || body === null || Array.isArray(body)))
      throw badRequest(EXECUTION.bodyObject);
    const b = kind.body.optional === true ? (body ?? {}) : body;
    return { kind, ok: true, intent: kind.parse(b as RequestBody, settings), error: undefined };
  } catch (e) {
    return { kind, ok: false, intent: undefined, error: e };
  }
}

/** Sets the request's parsed body, warnings and fees; throws the 400 of a refused field. */
function readExecutionFields(
  req: FastifyRequest,
  settings: RequestFeeSettings,
  known: ReturnType<typeof knownFieldsTable>,
): void {
  const kind = req.routeOptions.config?.kind;
  if (kind === undefined || req.method !== "POST") return;
  const parsed = parseOnce(kind, req.body, settings);
  req.execution = parsed;
  const body: unknown = req.body ?? {};
  // A body that is not an object gets the endpoint's own 400.
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const unknown = known.unknownFields(kind.path, body);
  // Issue 29: `"dryRun": true` ignored would execute the trade; a misspelt safety switch is always a 400.
  const misspelt = known.misspeltSwitch(kind.path, unknown);
  if (misspelt !== undefined)
    throw badRequest(REQUEST_FEES.misspeltSwitch(misspelt.field, misspelt.safetySwitch));
  if (unknown.length > 0 && settings.strictFields)
    throw badRequest(REQUEST_FEES.unknownFieldRefused(unknown[0]!));
  req.bodyWarnings = unknown.map((f) => REQUEST_FEES.unknownFieldIgnored(f));
  try {
    req.requestFees = parseRequestFees(body as RequestBody, settings, kind.ownTip === true);
  } catch (e) {
    // The endpoint's own 400s (the spec's texts, in its order) answer first: a fee field is refused only
    // on a body its endpoint accepts (docs/decisions.md, "fee fields after the body's own rules").
    if (!parsed.ok) throw parsed.error;
    throw e;
  }
}
