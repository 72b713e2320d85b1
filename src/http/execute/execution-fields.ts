/**
 * Issue 22 item 5 on every execution route: the per-request `priority_fee` / `tip` (parsed and bounded
 * before custody, so its policy sees them; refused only on a body the endpoint's own rules accept) and the
 * unknown-field warnings (`warnings` in the 200 answer) or, with STRICT_FIELDS=true, the 400; an unknown field
 * that is a misspelt safety switch (`dryRun`) is a 400 whatever STRICT_FIELDS says (issue 29).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RequestFeeSettings } from "../../config/request-fees.js";
import { badRequest, REQUEST_FEES } from "../../core/errors.js";
import { parseRequestFees, type RequestFees } from "../../core/fee-fields.js";
import type { RequestBody } from "../../core/request-fields.js";
import { EXECUTION_ROUTES, planSpendOrThrow, type SpendKind } from "../../domain/keys/spend.js";
import { misspeltSwitch, unknownFields } from "./known-fields.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The request's own priority fee and tip (execution routes; null elsewhere). */
    requestFees: RequestFees | null;
    /** `unknown field "x" ignored` per field the route does not read (execution routes; null elsewhere). */
    bodyWarnings: string[] | null;
  }
}

/** The `warnings` field of an execution answer. */
export const warningsSchema = {
  type: "array",
  items: { type: "string" },
  description:
    'Present when the body carried fields this endpoint does not read, one `unknown field "<name>" ignored` each (with STRICT_FIELDS=true such a body is a 400 instead)',
} as const;

/** The execution endpoint a request is a POST to, or undefined (every other request). */
export function executionKind(req: FastifyRequest): SpendKind | undefined {
  return req.method === "POST" ? kindOfRoute(req.routeOptions.url) : undefined;
}

/** The execution endpoint at a route pattern, or undefined. */
function kindOfRoute(url: string | undefined): SpendKind | undefined {
  return EXECUTION_ROUTES[url as keyof typeof EXECUTION_ROUTES];
}

/** Declares the request fields the hook sets (null until it does); see declareRequestFields in app.ts. */
export function declareExecutionFields(app: FastifyInstance): void {
  app.decorateRequest("requestFees", null);
  app.decorateRequest("bodyWarnings", null);
}

/** Installs the hook (before custody, which reads `requestFees`) and documents `warnings` on each route. */
export function installExecutionFields(app: FastifyInstance, settings: RequestFeeSettings): void {
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") || !(route.url in EXECUTION_ROUTES)) return;
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
      readExecutionFields(req, settings);
    } catch (e) {
      error = e as Error;
    }
    done(error);
  });
}

/** Sets the request's warnings and fees from an execution body; throws the 400 of a refused field. */
function readExecutionFields(req: FastifyRequest, settings: RequestFeeSettings): void {
  if (req.method !== "POST") return;
  // Read once (Fastify builds a new routeOptions object on every access).
  const url = req.routeOptions.url;
  const kind = kindOfRoute(url);
  if (kind === undefined) return;
  const body: unknown = req.body ?? {};
  // A body that is not an object gets the endpoint's own 400.
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const unknown = unknownFields(url ?? "", body);
  // Issue 29: `"dryRun": true` ignored would execute the trade; a misspelt safety switch is always a 400.
  const misspelt = misspeltSwitch(url ?? "", unknown);
  if (misspelt !== undefined)
    throw badRequest(REQUEST_FEES.misspeltSwitch(misspelt.field, misspelt.safetySwitch));
  if (unknown.length > 0 && settings.strictFields)
    throw badRequest(REQUEST_FEES.unknownFieldRefused(unknown[0]!));
  req.bodyWarnings = unknown.map((f) => REQUEST_FEES.unknownFieldIgnored(f));
  try {
    req.requestFees = parseRequestFees(body as RequestBody, settings, kind === "bundle");
  } catch (e) {
    // The endpoint's own 400s (the spec's texts, in its order) answer first: a fee field is refused only
    // on a body its endpoint accepts (docs/decisions.md, "fee fields after the body's own rules").
    planSpendOrThrow(kind, body as RequestBody, 0n, settings);
    throw e;
  }
}
