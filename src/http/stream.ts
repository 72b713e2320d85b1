/**
 * GET /v1/stream: the market data WebSocket (@fastify/websocket). Authentication by the `x-api-key`
 * header at the upgrade (a bad key: 401 before upgrading) or by a first `{"method":"auth"}` message
 * within the deadline (else close 4401). Each connection is a StreamSession on the shared hub; the
 * server pings every connection and ends those that stop answering.
 */
import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import { ApiError, FOUNDATION, STREAM } from "../core/errors.js";
import { MarketHub } from "../domain/market/market-hub.js";
import { CLOSE, StreamSession, type StreamLimits } from "../domain/market/stream-session.js";
import type { StreamMetrics } from "../observability/stream-metrics.js";
import { keyAllowed, type KeyCheckDeps } from "./auth.js";

/** Defaults of the per-connection limits. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxSubscriptions: 200,
  maxQueuedBytes: 1024 * 1024,
  authTimeoutMs: 5_000,
};

/** Largest client message accepted (ws closes the connection with 1009 above it). */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

/**
 * Registers the WebSocket plugin. Called before the hardening and auth hooks: its own onRequest hook marks an
 * upgrade, and only a marked upgrade has its socket destroyed once a hook has answered (a 401 at the upgrade
 * otherwise left the socket open and `app.close()` waiting on it).
 */
export async function registerWebSocket(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES } });
}

/** The stream's collaborators; the key checks are the auth hook's, on the app's clock. */
export interface StreamRouteDeps extends KeyCheckDeps {
  hub: MarketHub;
  limits?: Partial<StreamLimits>;
  metrics?: StreamMetrics;
  /** Interval of the server's pings; a connection that has not answered the previous one is ended. */
  pingMs?: number;
}

const STREAM_DESCRIPTION =
  "Upgrade to a WebSocket. Authenticate with the x-api-key header, or send " +
  '{"method":"auth","api_key":"..."} within 5 s (else close 4401). Then send ' +
  '{"method":"subscribeNewToken"}, {"method":"subscribeTokenTrade","keys":[mints]}, ' +
  '{"method":"subscribeAccountTrade","keys":[wallets]}, {"method":"subscribeMigration"} or their ' +
  "unsubscribe twins. Messages out are flat JSON objects with `type` new_token, trade, migration, " +
  "subscribed, unsubscribed, authenticated, pong or error; integer amounts are decimal strings. " +
  "A client that stops reading is closed with 4008. Without an upgrade: 401 without a valid key, else 426.";

/**
 * @fastify/swagger `transformObject`: adds GET /v1/stream to the OpenAPI document (@fastify/websocket
 * marks WebSocket routes hidden).
 */
export function withStreamPath<D extends { paths?: unknown }>({ openapiObject }: { openapiObject: D }): D {
  // The named components of components.ts (the document already carries them).
  const detail = { $ref: "#/components/schemas/Error" };
  (openapiObject as { paths?: Record<string, unknown> }).paths = {
    ...(openapiObject.paths as Record<string, unknown> | undefined),
    "/v1/stream": {
      get: {
        tags: ["stream"],
        operationId: "getV1Stream",
        summary: "Market data WebSocket: new tokens, trades by mint or wallet, migrations",
        description: STREAM_DESCRIPTION,
        security: [{ apiKey: [] }],
        "x-required-scope": "read",
        responses: {
          "101": { description: "Switching Protocols: the WebSocket is open" },
          "401": {
            description: "missing or unknown x-api-key",
            content: { "application/json": { schema: detail } },
          },
          "403": {
            description: "the key may not read: rule is scope, frozen (issue 19)",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Refusal" },
              },
            },
          },
          "429": {
            description: "a request budget of this key (or IP) is spent; retry after Retry-After",
            headers: { "Retry-After": { schema: { type: "integer" }, description: "seconds to wait" } },
            content: { "application/json": { schema: detail } },
          },
          "500": {
            description: "an unexpected error; request_id names it in the service log",
            content: { "application/json": { schema: { $ref: "#/components/schemas/ServerError" } } },
          },
          "426": {
            description: "not an Upgrade request",
            content: { "application/json": { schema: detail } },
          },
        },
      },
    },
  };
  return openapiObject;
}

/** Registers the WebSocket plugin and GET /v1/stream. */
export async function streamRoutes(app: FastifyInstance, deps: StreamRouteDeps): Promise<void> {
  const limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...deps.limits };
  // A key the stream accepts: known, not revoked, expired or frozen, and holding the read scope (issue 19).
  // At the upgrade the auth hook checks a header that is sent (401/403 with rule, as on every route); a key
  // sent later, by message, gets the same checks as a boolean.
  const knownKey = keyAllowed(deps, "read");

  const alive = new Map<WebSocket, boolean>();
  const pinger = setInterval(() => {
    for (const [socket, answered] of alive) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, deps.pingMs ?? 30_000);
  pinger.unref();
  app.addHook("onClose", async () => clearInterval(pinger));

  app.get(
    "/v1/stream",
    {
      websocket: true,
      // The auth hook checks the header when sent; without it, the first message authenticates.
      config: { scope: "read", optionalKey: true },
      // @fastify/websocket hides WebSocket routes from the document; withStreamPath documents it.
      preValidation: async (req) => {
        const upgrade = (req.headers.upgrade ?? "").toLowerCase() === "websocket";
        // Only an upgrade may authenticate later, by its first message.
        if (req.custodyKey === null && !upgrade) throw new ApiError(401, FOUNDATION.apiKeyMissing);
        if (req.custodyKey !== null && !upgrade) throw new ApiError(426, STREAM.upgradeRequired);
      },
    },
    (socket, req) => {
      deps.metrics?.connectionOpened();
      const session = new StreamSession(
        {
          send: (text) => socket.send(text),
          bufferedBytes: () => socket.bufferedAmount,
          close: (code, reason) => socket.close(code, reason),
        },
        { hub: deps.hub, limits, authenticate: knownKey, observer: deps.metrics },
        req.custodyKey !== null,
      );
      alive.set(socket, true);
      socket.on("pong", () => alive.set(socket, true));
      socket.on("message", (data, isBinary) => {
        if (isBinary) {
          socket.send(JSON.stringify({ type: "error", message: "send text frames with JSON messages" }));
          return;
        }
        session.onText(data.toString()).catch((e: unknown) => {
          req.log.error({ err: { message: (e as Error).message } }, "stream message failed");
          socket.send(JSON.stringify({ type: "error", message: "internal error" }));
        });
      });
      socket.on("close", () => {
        alive.delete(socket);
        session.onClose();
        deps.metrics?.connectionClosed();
      });
    },
  );
}

export { CLOSE as STREAM_CLOSE_CODES };
