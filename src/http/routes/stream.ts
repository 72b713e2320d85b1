/**
 * GET /v1/stream: the market data WebSocket (@fastify/websocket). Authentication by the `x-api-key`
 * header at the upgrade (a bad key: 401 before upgrading) or by a first `{"method":"auth"}` message
 * within the deadline (else close 4401). Each connection is a StreamSession on the shared hub; the
 * server pings every connection and ends those that stop answering. Issue 29: every connection is in the
 * process's StreamRegistry (caps per key and IP; closed 4401/4403 when its key stops authorizing it), an
 * auth message with an unknown key counts as an invalid key of the IP, and every frame the server writes is
 * under the slow-reader bound.
 */
import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import { ApiError, FOUNDATION, STREAM } from "../../core/errors.js";
import { MarketHub } from "../../domain/market/market-hub.js";
import {
  CLOSE,
  StreamSession,
  type AuthOutcome,
  type StreamLimits,
} from "../../domain/market/stream-session.js";
import {
  STREAM_CAP_RETRY_SECONDS,
  streamVerdict,
  type StreamRegistry,
  type StreamTicket,
} from "../../domain/streams/stream-registry.js";
import type { StreamMetrics } from "../../observability/stream-metrics.js";
import type { KeyCheckDeps } from "../hooks/auth.js";
import type { AuthFailureCount } from "../hooks/hardening-install.js";

/** Defaults of the per-connection limits. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxSubscriptions: 200,
  maxQueuedBytes: 1024 * 1024,
  authTimeoutMs: 5_000,
  maxMessagesPerSecond: 100,
};

/** Largest client message accepted (ws closes the connection with 1009 above it). */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

/**
 * What one queued frame costs beyond its payload, counted against maxQueuedBytes: the socket keeps a header
 * buffer, the payload buffer and a write request per frame, so a client that never reads and keeps asking for
 * tiny replies (pong) would otherwise hold many times the bound in memory (issue 29, finding 2).
 */
export const FRAME_COST_BYTES = 256;

/** How long a connection the server closed may take to answer the close frame before it is cut. */
const CLOSE_GRACE_MS = 2_000;

/** A WebSocket close reason is at most 123 bytes. */
function closeReason(reason: string): string {
  const bytes = Buffer.from(reason);
  return bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString() + "...";
}

/**
 * Registers the WebSocket plugin. Called before the hardening and auth hooks: its own onRequest hook marks an
 * upgrade, and only a marked upgrade has its socket destroyed once a hook has answered (a 401 at the upgrade
 * otherwise left the socket open and `app.close()` waiting on it).
 */
export async function registerWebSocket(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES },
    // A socket error is the client's doing (a frame over 64 KiB, a broken frame, a reset): one warn line
    // without a stack (issue 29, finding 17), not the plugin's default error-level log of the whole error.
    errorHandler: (error, socket, req) => {
      const code = (error as { code?: unknown }).code;
      req.log.warn(
        { code: typeof code === "string" ? code : undefined },
        "stream socket error: " + error.message,
      );
      socket.terminate();
    },
  });
}

/** The stream's collaborators; the key checks are the auth hook's, on the app's clock. */
export interface StreamRouteDeps extends KeyCheckDeps {
  hub: MarketHub;
  limits?: Partial<StreamLimits>;
  metrics?: StreamMetrics;
  /** Interval of the server's pings; a connection that has not answered the previous one is ended. */
  pingMs?: number;
  /** How long a connection the server closed may take to answer the close frame before it is cut (default 2 s). */
  closeGraceMs?: number;
  /** Issue 29: the process's open streams (caps, re-authorization). */
  registry: StreamRegistry;
  /** Issue 29: counts an unknown key of an auth message on the IP's invalid-key allowance. */
  countAuthFailure?: AuthFailureCount;
}

const STREAM_DESCRIPTION =
  "Upgrade to a WebSocket. Authenticate with the x-api-key header, or send " +
  '{"method":"auth","api_key":"..."} within 5 s (else close 4401). Then send ' +
  '{"method":"subscribeNewToken"}, {"method":"subscribeTokenTrade","keys":[mints]}, ' +
  '{"method":"subscribeAccountTrade","keys":[wallets]}, {"method":"subscribeMigration"} or their ' +
  "unsubscribe twins. Messages out are flat JSON objects with `type` new_token, trade, migration, " +
  "subscribed, unsubscribed, authenticated, pong or error; integer amounts are decimal strings. " +
  "A client that stops reading (replies included) is closed with 4008. A stream whose key is revoked or " +
  "expires is closed with 4401, one whose key or account is frozen with 4403. Open streams are capped per key " +
  "and per IP (429 at the upgrade; 4429 after an auth message over the key's cap); an auth message with an " +
  "unknown key counts as an invalid key of the IP (4429 past AUTH_FAILURES_PER_MINUTE). " +
  "Without an upgrade: 401 without a valid key, else 426.";

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
            description:
              "a request budget of this key (or IP) is spent (retry after Retry-After), or its open streams are at the cap",
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
  // sent later, by message, gets the same checks, then the key's cap (issue 29).
  const authenticate = async (presented: string, ip: string, ticket: StreamTicket): Promise<AuthOutcome> => {
    const key = await deps.store.findKeyByHash(deps.vault.hashApiKey(presented));
    if (key === undefined) {
      const wait = await deps.countAuthFailure?.(ip, "/v1/stream");
      if (wait === undefined) return { ok: false, code: CLOSE.unauthorized, reason: "unknown API key" };
      return {
        ok: false,
        code: CLOSE.tooMany,
        reason: `too many invalid API keys from this address; retry in ${wait} s`,
      };
    }
    const verdict = streamVerdict(key, deps.clock());
    if (verdict !== undefined) return { ok: false, ...verdict };
    const refused = ticket.bind(key);
    return refused === undefined ? { ok: true } : { ok: false, code: CLOSE.tooMany, reason: refused };
  };

  const closeGraceMs = deps.closeGraceMs ?? CLOSE_GRACE_MS;
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
      preValidation: async (req, reply) => {
        const upgrade = (req.headers.upgrade ?? "").toLowerCase() === "websocket";
        // Only an upgrade may authenticate later, by its first message.
        if (req.custodyKey === null && !upgrade) throw new ApiError(401, FOUNDATION.apiKeyMissing);
        if (req.custodyKey !== null && !upgrade) throw new ApiError(426, STREAM.upgradeRequired);
        // Issue 29: the caps, before upgrading (the handler registers the connection, and re-checks).
        const refused = deps.registry.refusal(req.ip, req.custodyKey?.id);
        if (refused !== undefined) {
          void reply.header("Retry-After", String(STREAM_CAP_RETRY_SECONDS));
          throw new ApiError(429, refused);
        }
      },
    },
    (socket, req) => {
      deps.metrics?.connectionOpened();
      // Frames handed to the socket and not yet written to the kernel: each costs FRAME_COST_BYTES too.
      let queuedFrames = 0;
      const written = (): void => {
        queuedFrames--;
      };
      const opened = deps.registry.open(
        req.ip,
        // Called later, never during open(): `session` is assigned by then.
        { end: (code, reason) => session.end(code, closeReason(reason)) },
        req.custodyKey ?? undefined,
      );
      const ticket = typeof opened === "string" ? undefined : opened;
      const session = new StreamSession(
        {
          send: (text) => {
            queuedFrames++;
            socket.send(text, written);
          },
          bufferedBytes: () => socket.bufferedAmount + queuedFrames * FRAME_COST_BYTES,
          close: (code, reason) => {
            // A client closed for not reading or for flooding: stop reading what it still sends (its close
            // answer included; the cut below ends it).
            if (code === CLOSE.slowReader || code === CLOSE.tooMany) socket.pause();
            socket.close(code, reason);
            // A client that does not read does not answer the close frame either: without this, its socket (and
            // the bytes queued in it) would linger for ws' 30 s close timeout. Its slot is held until then.
            setTimeout(() => socket.terminate(), closeGraceMs).unref();
          },
        },
        {
          hub: deps.hub,
          limits,
          authenticate: (presented) =>
            ticket === undefined
              ? Promise.resolve({ ok: false, code: CLOSE.tooMany, reason: "too many open streams" })
              : authenticate(presented, req.ip, ticket),
          observer: deps.metrics,
        },
        req.custodyKey !== null && ticket !== undefined,
      );
      // Over a cap between the upgrade's check and now (another connection won the last slot).
      if (typeof opened === "string") {
        deps.metrics?.closed("limited");
        session.onClose();
        socket.close(CLOSE.tooMany, closeReason(opened));
        setTimeout(() => socket.terminate(), closeGraceMs).unref();
      }
      alive.set(socket, true);
      socket.on("pong", () => alive.set(socket, true));
      socket.on("message", (data, isBinary) => {
        if (isBinary) return session.error("send text frames with JSON messages");
        session.onText(data.toString()).catch((e: unknown) => {
          req.log.error({ err: { message: (e as Error).message } }, "stream message failed");
          session.error("internal error");
        });
      });
      socket.on("close", () => {
        alive.delete(socket);
        ticket?.release();
        session.onClose();
        deps.metrics?.connectionClosed();
      });
    },
  );
}

export { CLOSE as STREAM_CLOSE_CODES };
