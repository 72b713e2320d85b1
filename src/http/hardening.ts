/**
 * Request hooks of issue 23 that belong to no single route: the Host allow-list, the metrics token,
 * `Connection: close` on an early 4xx, and `Cache-Control: no-store` on authenticated reads.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { HardeningSettings } from "../config/hardening.js";
import { ApiError, HARDENING } from "../core/errors.js";

/** Whether `presented` equals `expected`, in time independent of where they differ. */
function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Registers the Host check and the metrics token (onRequest, before auth). */
export function installRequestGuards(app: FastifyInstance, settings: HardeningSettings): void {
  const allowed = new Set(settings.allowedHosts);
  if (allowed.size > 0) {
    app.addHook("onRequest", async (req) => {
      // hostname is the Host header without its port (Fastify 5).
      if (!allowed.has(req.hostname.toLowerCase())) throw new ApiError(421, HARDENING.hostNotAllowed);
    });
  }
  const token = settings.metricsToken;
  if (token !== undefined) {
    app.addHook("onRequest", async (req) => {
      if (req.routeOptions.url !== "/metrics") return;
      const header = req.headers.authorization ?? "";
      const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
      if (!sameSecret(presented, token)) throw new ApiError(401, HARDENING.metricsToken);
    });
  }
}

/**
 * Every JSON body is an object or absent. Registered globally so the text is one everywhere, and so that Ajv's
 * type coercion never turns a body of `false`, `0` or `""` into "no body" on routes whose body is optional.
 */
export function installBodyShapeGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (req) => {
    const body: unknown = req.body;
    if (body === undefined || body === null) return;
    if (typeof body !== "object" || Array.isArray(body)) throw new ApiError(400, HARDENING.bodyObject);
  });
}

/** Registers the response hook: close on an early 4xx, no-store on authenticated GETs. */
export function installResponseGuards(app: FastifyInstance): void {
  app.addHook("onSend", async (req, reply, payload) => {
    // A 4xx answered before the body arrived (401 on a bad key, 413, 415, 429): without this Node would keep
    // reading (and discarding) the rest of the declared body, holding the socket for as long as the client likes.
    if (reply.statusCode >= 400 && reply.statusCode < 500 && !req.raw.complete)
      void reply.header("Connection", "close");
    if (req.method === "GET" && (req.apiKey ?? null) !== null) void reply.header("Cache-Control", "no-store");
    return payload;
  });
}
