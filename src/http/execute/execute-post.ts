/** The registration every execute route shares: POST, authenticated, its 200 answer beside the execution errors. */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from "fastify";
import type { RouteScope } from "../../domain/keys/scopes.js";
import { apiKeySecurity, executionErrors } from "../openapi/schemas.js";

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

/** Registers `route` on `app` with `handler` (an `executeRoute` handler). */
export function executePost(
  app: FastifyInstance,
  route: ExecutePost,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const { path, scope, idempotent = true, tag, summary, body, response, preValidation } = route;
  app.post(
    path,
    {
      config: idempotent ? { idempotent, scope } : { scope },
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
