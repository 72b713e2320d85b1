/** One node:http server for RPC (/), relay (/relay), bundle relay (/api/v1/...) and admin (/admin/...). */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import { crossSiteRefusal } from "./cross-site.js";
import type { CallStats, Endpoint, Faults } from "./faults.js";
import { RpcError, toJson } from "./json.js";
import type { RpcHandler } from "./rpc-methods.js";

/** An admin route handler: JSON body in, JSON out (throw to answer 400). */
export type AdminHandler = (body: unknown) => unknown;

/** Everything the server dispatches to. */
export interface ServerRoutes {
  rpc: Map<string, RpcHandler>;
  relay: Map<string, RpcHandler>;
  /** The second relay (/relay2) and its own fault switches. */
  relay2?: { methods: Map<string, RpcHandler>; faults: Faults };
  /** The landing routes (/route/<name>), each with its own fault switches (its latency). */
  routes?: ReadonlyMap<string, { methods: Map<string, RpcHandler>; faults: Faults }>;
  bundle: Map<string, RpcHandler>;
  /** Keyed "<METHOD> <path>", e.g. "POST /admin/faults". */
  admin: Map<string, AdminHandler>;
  faults: Faults;
  stats: CallStats;
}

const BUNDLE_PATHS = new Set([
  "/api/v1/bundles",
  "/api/v1/getBundleStatuses",
  "/api/v1/getInflightBundleStatuses",
  "/api/v1/getTipAccounts",
]);

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    // A JSON-RPC call mostly arrives in one chunk: decoded as is, not copied first.
    req.on("end", () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, toJson(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

interface RpcCall {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const INJECTED: Record<Endpoint, { http429: { code: number; message: string } }> = {
  rpc: { http429: { code: 429, message: "Too many requests for a specific RPC call" } },
  relay: { http429: { code: -32005, message: "Too many requests" } },
  relay2: { http429: { code: -32005, message: "Too many requests" } },
  route: { http429: { code: -32005, message: "Too many requests" } },
  bundle: {
    http429: {
      code: -32097,
      message:
        "Rate limit exceeded. Limit: 1 per second for txn requests. Back-off triggered: Retry after 1000ms",
    },
  },
};

/** Serves one JSON-RPC request (single or batch) on an endpoint, applying faults and counting calls. */
async function serveRpc(
  endpoint: Endpoint,
  methods: Map<string, RpcHandler>,
  routes: ServerRoutes,
  raw: string,
  res: ServerResponse,
  sleep: (ms: number) => Promise<void>,
  tag?: string,
  faults: Faults = routes.faults,
): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    send(res, 200, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    return;
  }
  const batch = Array.isArray(parsed);
  const calls = (batch ? parsed : [parsed]) as RpcCall[];
  let beforeMs = 0;
  let afterMs = 0;
  let injected: ReturnType<Faults["decide"]>["error"] = null;
  for (const c of calls) {
    const method = typeof c?.method === "string" ? c.method : "invalid";
    routes.stats.count(endpoint, method, tag);
    const d = faults.decide(endpoint, method);
    beforeMs = Math.max(beforeMs, d.beforeMs);
    afterMs = Math.max(afterMs, d.afterMs);
    injected = injected ?? d.error;
  }
  // The injected latency is a network round trip: the call travels half of it, is handled (a send executes,
  // or is accepted and executes on the next turn), and the answer travels the other half. Sleeping it all
  // before the handling made an accepted send execute after its answer had arrived, on this one event loop,
  // so the client's next call waited behind that execution, which a real relay does not do.
  const arrived = performance.now();
  if (beforeMs > 0) await sleep(beforeMs);
  const { status, body } = handleRpc(endpoint, methods, calls, batch, injected);
  // Serialized now: the answer is what the handling saw, whatever executes during the way back.
  const text = toJson(body);
  // The way back ends at the arrival plus the whole delay, so a late first timer does not add to the second
  // (each timer fires up to a millisecond late); even when nothing is left to wait, the answer goes on a
  // later turn than the accepted send's execution.
  if (afterMs > 0) await sleep(Math.max(0, arrived + beforeMs + afterMs - performance.now()));
  sendText(res, status, text);
}

/** Handles a parsed call or batch now, or answers the injected error: the status and body to answer. */
function handleRpc(
  endpoint: Endpoint,
  methods: Map<string, RpcHandler>,
  calls: RpcCall[],
  batch: boolean,
  injected: ReturnType<Faults["decide"]>["error"],
): { status: number; body: unknown } {
  const firstId = calls[0]?.id ?? null;
  if (injected === "http429") {
    return { status: 429, body: { jsonrpc: "2.0", error: INJECTED[endpoint].http429, id: firstId } };
  }
  if (injected === "http500") {
    return {
      status: 500,
      body: { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: firstId },
    };
  }
  let status = 200;
  const answers = calls.map((c) => {
    const id = c?.id ?? null;
    if (injected === "rpcError") {
      return { jsonrpc: "2.0", error: { code: -32603, message: "Internal error: injected fault" }, id };
    }
    if (c === null || typeof c !== "object" || typeof c.method !== "string") {
      return { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id };
    }
    const handler = methods.get(c.method);
    if (handler === undefined)
      return { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id };
    const params = c.params === undefined ? [] : c.params;
    if (!Array.isArray(params)) {
      return { jsonrpc: "2.0", error: { code: -32602, message: "Invalid params: expected an array" }, id };
    }
    try {
      return { jsonrpc: "2.0", result: handler(params), id };
    } catch (e) {
      if (e instanceof RpcError) {
        if (!batch) status = e.httpStatus;
        return { jsonrpc: "2.0", error: e.body(), id };
      }
      return {
        jsonrpc: "2.0",
        error: { code: -32603, message: `Internal error: ${(e as Error).message}` },
        id,
      };
    }
  });
  return { status, body: batch ? answers : answers[0] };
}

async function serveAdmin(
  routes: ServerRoutes,
  key: string,
  raw: string,
  res: ServerResponse,
): Promise<void> {
  const handler = routes.admin.get(key);
  if (handler === undefined) {
    send(res, 404, { error: `no admin route ${key}` });
    return;
  }
  let body: unknown = {};
  if (raw.trim().length > 0) {
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, { error: "body is not JSON" });
      return;
    }
  }
  try {
    send(res, 200, (await handler(body)) ?? { ok: true });
  } catch (e) {
    send(res, 400, { error: (e as Error).message });
  }
}

/** Creates (not yet listening) the localnet HTTP server. `sleep` is tracked so close() can cancel waits. */
export function createLocalnetServer(routes: ServerRoutes, sleep: (ms: number) => Promise<void>): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    void (async () => {
      try {
        if (req.method === "GET" && (path === "/health" || path === "/ping")) {
          res.writeHead(200, { "content-type": "text/plain" }).end("ok");
          return;
        }
        const refusal = crossSiteRefusal(req);
        if (refusal !== undefined) {
          req.resume();
          return send(res, refusal.status, { error: refusal.error });
        }
        const raw = await readBody(req);
        if (path.startsWith("/admin/")) return await serveAdmin(routes, `${req.method} ${path}`, raw, res);
        if (req.method !== "POST") return send(res, 405, { error: "use POST" });
        const tag = statsTag(req);
        if (path === "/") return await serveRpc("rpc", routes.rpc, routes, raw, res, sleep, tag);
        if (path === "/relay") return await serveRpc("relay", routes.relay, routes, raw, res, sleep, tag);
        if (path === "/relay2" && routes.relay2 !== undefined) {
          const r2 = routes.relay2;
          return await serveRpc("relay2", r2.methods, routes, raw, res, sleep, tag, r2.faults);
        }
        const route = path.startsWith("/route/") ? routes.routes?.get(path.slice(7)) : undefined;
        if (route !== undefined) {
          return await serveRpc("route", route.methods, routes, raw, res, sleep, tag, route.faults);
        }
        if (BUNDLE_PATHS.has(path)) {
          return await serveRpc("bundle", routes.bundle, routes, raw, res, sleep, tag);
        }
        send(res, 404, { error: `no route ${path}` });
      } catch (e) {
        send(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: (e as Error).message }, id: null });
      }
    })();
  });
  // Clients pool keep-alive sockets and drop them after their own idle timer (about 4 s for fetch and
  // web3.js). Node's server default (5 s) is close enough that a client stalled by a loaded machine sends
  // on a socket the server has just closed ("fetch failed"); a much longer server idle leaves the closing
  // to the client, as public RPC endpoints do.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/**
 * The `x-localnet-tag` header of a call, when it is a short lowercase word: such calls are counted under
 * "<tag>:<endpoint>.<method>", so a client can keep its background traffic apart from what it measures.
 */
export function statsTag(req: IncomingMessage): string | undefined {
  const tag = req.headers["x-localnet-tag"];
  return typeof tag === "string" && /^[a-z0-9-]{1,32}$/.test(tag) ? tag : undefined;
}
