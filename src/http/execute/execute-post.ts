/** The registration every execute route shares: POST, authenticated, its 200 answer beside the execution errors. */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from "fastify";
import type { RouteScope } from "../../domain/keys/scopes.js";
import { apiKeySecurity, executionErrors } from "../openapi/schemas.js";
import { EXECUTION, badRequest } from "../../core/errors.js";
import { checkKinds, type ExecutionKindEntry } from "../../domain/execution/kind.js";
import { kindRoute, type RouteDeps } from "./execute-route.js";
import type { Store } from "../../store/index.js";

/** One execute route: where it answers, who may call it, and its OpenAPI description. */
export interface ExecutePost {
  path: string;
  scope: RouteScope;
  /** Whether it takes an Idempotency-Key: default true (a read-only route such as the cashback check does not). */
  idempotent?: boolean;
  /** The OpenAPI tag (the endpoint family). */
  tag: string;
  summary: string;
  body: object;
  /** The 200 answer's schema. */
  response: object;
  /** A callback hook (an async one costs a promise and a microtask turn per request). */
  preValidation?: preValidationHookHandler;
}

/** Registers `route` on `app` with `handler` (an `executeRoute` handler); `kind`: the execution kind it serves. */
export function executePost(
  app: FastifyInstance,
  route: ExecutePost,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  kind?: ExecutionKindEntry,
): void {
  const { path, scope, idempotent = true, tag, summary, body, response, preValidation } = route;
  app.post(
    path,
    {
      config: {
        ...(idempotent ? { idempotent } : {}),
        scope,
        ...(kind !== undefined ? { kind } : {}),
      },
      ...(preValidation !== undefined ? { preValidation } : {}),
      schema: {
        tags: [tag],
        security: apiKeySecurity,
        summary,
        body,
        response: { 200: response, ...executionErrors },
      },
    },
    handler,
  );
}

/**
 * The route schema Fastify is given for a kind's body: its fields with their descriptions only. The kind's
 * parser validates (the spec's aliases, number-or-string amounts and texts); typed, Ajv would coerce values and
 * answer its own texts. The document shows the typed description (openapi/kind-document.ts).
 */
function routeBody(kind: ExecutionKindEntry): object {
  const properties = Object.fromEntries(
    Object.entries(kind.body.properties).map(([name, field]) => [
      name,
      field.description === undefined ? {} : { description: field.description },
    ]),
  );
  return { type: kind.body.optional === true ? ["object", "null"] : "object", properties };
}

// Before schema validation, so a body that is not an object gets the service's own text.
const objectBodyFirst: preValidationHookHandler = (req, _reply, done) => {
  const b: unknown = req.body;
  done(
    typeof b !== "object" || b === null || Array.isArray(b) ? badRequest(EXECUTION.bodyObject) : undefined,
  );
};

/** Registers the route of every kind of `kinds` (the list is checked first: deny by default). */
export function registerKinds(
  app: FastifyInstance,
  kinds: readonly ExecutionKindEntry[],
  // Every kind's collaborators in one object: each run takes the members it names.
  deps: RouteDeps<{ chain: unknown; store: Pick<Store, "insertExecution"> }> & Record<string, unknown>,
): void {
  checkKinds(kinds);
  for (const kind of kinds)
    executePost(
      app,
      {
        path: kind.path,
        scope: kind.scope,
        tag: kind.tag,
        summary: kind.summary,
        body: routeBody(kind),
        response: kind.response,
        ...(kind.objectBodyFirst === true ? { preValidation: objectBodyFirst } : {}),
      },
      kindRoute(deps, kind),
      kind,
    );
}
