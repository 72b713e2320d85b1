/** The custody facts of each route in the document: its required scope and the key routes' typed bodies. */
import type { FastifySchema } from "fastify";
import { routeScope } from "../hooks/auth.js";
import type { RouteScope } from "../../domain/keys/scopes.js";
import { keyBodyTypes } from "../routes/keys.js";

/** Each route's required scope in the document (x-required-scope) and the typed bodies of the key routes. */
export function custodyDocument(
  out: { schema: FastifySchema; url: string },
  route: { method: string | string[]; config?: unknown },
): { schema: FastifySchema; url: string } {
  const config = (route.config ?? {}) as { public?: boolean; scope?: string };
  if (out.schema === undefined || config.public === true) return out;
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const body = keyBodyTypes[`${method} ${out.url}`];
  return {
    ...out,
    schema: {
      ...out.schema,
      ...(body !== undefined ? { body } : {}),
      "x-required-scope": routeScope(method, config.scope as RouteScope | undefined),
    } as FastifySchema,
  };
}
