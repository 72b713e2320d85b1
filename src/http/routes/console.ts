/**
 * GET /console: the operator console, static files built by `npm run build` (scripts/console-build.mjs) and
 * served from memory by this process (no second server, no CDN). Public routes: the page holds no data; it
 * asks for an API key and calls the API with it like any client. Hidden from the OpenAPI document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { defaultConsoleDir, loadConsoleAssets, type ConsoleAsset } from "./console-assets.js";

/**
 * The console's policy: its own scripts, styles and API only. No inline script or style element (the build
 * emits none; styles set from script go through the CSSOM, which style-src does not govern), no framing, no
 * third-party origin. connect-src 'self' covers the same-origin WebSocket of the market stream.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const NOT_BUILT =
  "The console is not built: run `npm run build` (or `npm run build:console`) and restart the service.\n";

/** Registers /console and /console/* over the files of `dir` (default dist/console; null: not served). */
export function consoleRoutes(app: FastifyInstance, deps: { dir?: string | null }): void {
  if (deps.dir === null) return;
  const dir = deps.dir ?? defaultConsoleDir();
  const assets = dir === undefined ? undefined : loadConsoleAssets(dir);
  const options = { config: { public: true }, schema: { hide: true } } as const;
  const serve = (name: string, req: FastifyRequest, reply: FastifyReply) => {
    if (assets === undefined) return reply.code(503).type("text/plain; charset=utf-8").send(NOT_BUILT);
    const asset = assets.get(name);
    if (asset === undefined) return reply.code(404).type("text/plain; charset=utf-8").send("not found\n");
    return send(asset, req, reply);
  };
  app.get("/console", options, (req, reply) => serve("index.html", req, reply));
  app.get("/console/*", options, (req, reply) => {
    const name = (req.params as { "*": string })["*"];
    return serve(name === "" ? "index.html" : name, req, reply);
  });
}

function send(asset: ConsoleAsset, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply
    .header("content-security-policy", CONSOLE_CSP)
    .header("cache-control", asset.immutable ? "public, max-age=31536000, immutable" : "no-cache")
    .header("etag", asset.etag)
    .header("vary", "accept-encoding")
    .type(asset.type);
  if (req.headers["if-none-match"] === asset.etag) return reply.code(304).send();
  const gzip = asset.gzip !== undefined && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  if (gzip) reply.header("content-encoding", "gzip");
  return reply.send(gzip ? asset.gzip : asset.body);
}
