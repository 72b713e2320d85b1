/**
 * Request hooks of issue 23 that belong to no single route: the Host allow-list, the metrics token,
 * `Connection: close` on an early 4xx, and `Cache-Control: no-store` on authenticated reads.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { HardeningSettings } from "../../config/hardening.js";
import { ApiError, HARDENING } from "../../core/errors.js";

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
    // Callback hooks where nothing is awaited: an async hook costs a promise on every request.
    app.addHook("onRequest", (req, _reply, done) => {
      // hostname is the Host header without its port (Fastify 5).
      done(allowed.has(req.hostname.toLowerCase()) ? undefined : new ApiError(421, HARDENING.hostNotAllowed));
    });
  }
  const token = settings.metricsToken;
  if (token !== undefined) {
    app.addHook("onRequest", (req, _reply, done) => {
      if (req.routeOptions.url !== "/metrics") return done();
      const header = req.headers.authorization ?? "";
      const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
      done(sameSecret(presented, token) ? undefined : new ApiError(401, HARDENING.metricsToken));
    });
  }
}

/**
 * Every JSON body is an object or absent. Registered globally so the text is one everywhere, and so that Ajv's
 * type coercion never turns a body of `false`, `0` or `""` into "no body" on routes whose body is optional.
 */
export function installBodyShapeGuard(app: FastifyInstance): void {
  app.addHook("preValidation", (req, _reply, done) => {
    const body: unknown = req.body;
    const shaped = body === undefined || body === null || (typeof body === "object" && !Array.isArray(body));
    done(shaped ? undefined : new ApiError(400, HARDENING.bodyObject));
  });
}

/** Registers the response hook: close on an early 4xx, no-store on authenticated GETs. */
export function installResponseGuards(app: FastifyInstance): void {
  app.addHook("onSend", (req, reply, payload, done) => {
    // A 4xx answered before the body arrived (401 on a bad key, 413, 415, 429): without this Node would keep
    // reading (and discarding) the rest of the declared body, holding the socket for as long as the client likes.
    if (reply.statusCode >= 400 && reply.statusCode < 500 && !req.raw.complete)
      void reply.header("Connection", "close");
    if (req.method === "GET" && (req.apiKey ?? null) !== null) void reply.header("Cache-Control", "no-store");
    done(null, payload);
  });
}
