/**
 * Helmet's security headers on every response, computed once. `@fastify/helmet` builds a new helmet middleware
 * per request (option parsing and CSP directive validation included), and even a middleware built once
 * rebuilds the CSP text and sets 13 headers one `setHeader` at a time on every request (about 40 µs of CPU
 * and 5 KB of garbage per trade, issue 18). The options here are static (no per-request nonce or directive
 * function), so the headers are too: helmet's own middleware is run once against a recording response, and
 * each request gets that record as Fastify reply headers, written with the status line in one go. The
 * headers are the same; the app uses neither of `@fastify/helmet`'s reply decorators (`reply.helmet`,
 * `reply.cspNonce`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/** The headers helmet's middleware sets for `options` (lower-case names); throws on per-request options. */
export function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === "object" && csp !== null ? (csp.directives ?? {}) : {};
  for (const [name, value] of Object.entries(directives)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === "function"))
      throw new Error(`security headers: CSP directive ${name} depends on the request; not supported`);
  }
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let error: unknown;
  // helmet's middleware only sets and removes headers on the response, then calls `next` synchronously.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    error = err;
  });
  if (error !== undefined) throw error;
  return Object.freeze(headers);
}

/** Sets helmet's headers (for `options`) on every response, in an onRequest hook as `@fastify/helmet` did. */
export function installSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = helmetHeaders(options);
  app.addHook("onRequest", (_req, reply, done) => {
    // A route or a later hook (Swagger UI's CSP for /docs) may still replace one: the last set wins, as before.
    reply.headers(headers);
    done();
  });
}
