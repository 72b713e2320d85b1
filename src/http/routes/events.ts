/**
 * GET /v1/events: the key's execution events as Server-Sent Events (default) or, with Accept: application/json,
 * as a page. The stream is written through Fastify's own reply streaming (a PassThrough it pipes). Issue 29:
 * each stream is in the process's StreamRegistry (caps per key and IP: 429), and ends with an `event: closed`
 * message when its key is revoked, expires or is frozen.
 */
import { PassThrough } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  EVENT_TYPES,
  EVENTS_MAX_LIMIT,
  parseEventsQuery,
  type EventsQuery,
} from "../../domain/events/query.js";
import { eventsPage, streamEvents, type StreamItem } from "../../domain/events/stream.js";
import { STREAM_CAP_RETRY_SECONDS, type StreamRegistry } from "../../domain/streams/stream-registry.js";
import { ApiError } from "../../core/errors.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, authErrors, errorSchema, ref, closedObject } from "../openapi/schemas.js";

/** Timing of the stream (tests shorten it). */
export interface EventStreamTiming {
  /** A comment line this often keeps proxies from closing an idle stream (default 15 s). */
  heartbeatMs?: number;
  /** Re-read of the outbox without a wake-up (default 2 s). */
  pollMs?: number;
}

/** One execution event (the `Event` component); `kinds`: the words executions are recorded under. */
export const eventComponentOf = (kinds: readonly string[]) =>
  closedObject(
    {
      id: {
        type: "integer",
        description: "per-account, increasing; the stream cursor (Last-Event-ID, ?after=)",
      },
      type: {
        type: "string",
        description:
          "execution.<status>, e.g. execution.confirmed; order.<created|triggered|filled|failed|cancelled|expired>; or position.updated",
      },
      execution_id: {
        type: "string",
        description:
          "the execution (GET /v1/executions/{id}); for order.* events the order (GET /v1/orders/{id})",
      },
      kind: {
        type: "string",
        enum: [...kinds, "order"],
        description: "which endpoint ran the execution; order for order.* events",
      },
      wallets: { type: "array", items: { type: "string" }, description: "the managed wallets involved" },
      signatures: { type: "array", items: { type: "string" }, description: "its transaction signatures" },
      status: {
        type: "string",
        description: "the execution's new status (as in Execution.status), or the order's state",
      },
      error: { description: "why it failed, when the status is failed; null otherwise" },
      created_at: { type: "string", description: "RFC 3339 UTC with Z: when the event was recorded" },
      position: {
        ...ref("Position"),
        description:
          "position.updated only: the position after the fill (ledger figures; liquidation value not included)",
      },
    },
    {
      $id: "Event",
      description:
        "An execution event (an execution of this key changed status) or a position.updated event (a fill moved a position; execution_id names the trade, status is the position's open or closed)",
      optional: ["position"],
    },
  );

const pageSchema = closedObject({
  events: { type: "array", items: ref("Event"), description: "oldest first" },
  next_cursor: { type: "string", description: "pass as ?after= for the next page" },
  gap: {
    type: "boolean",
    description: "true when events after the cursor were purged (older than the retention)",
  },
});

/** One SSE message. Events carry their id (the browser's Last-Event-ID); the gap notice does not. */
function sseMessage(item: StreamItem): string {
  // Sent once the stream's starting point is fixed: a client that acts on it misses nothing it causes.
  if (item.kind === "ready") return ": connected\nretry: 1000\n\n";
  if (item.kind === "gap") {
    return `event: gap\ndata: ${JSON.stringify({ after: String(item.after), oldest_retained: item.oldest })}\n\n`;
  }
  return `id: ${item.event.id}\ndata: ${JSON.stringify(item.event)}\n\n`;
}

function wantsJson(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? "";
  return accept.includes("application/json") && !accept.includes("text/event-stream");
}

/** Registers GET /v1/events. */
export function eventRoutes(
  app: FastifyInstance,
  deps: {
    store: Pick<Store, "listEvents" | "eventBounds" | "onEventWake">;
    events?: EventStreamTiming;
    /** Issue 29: the process's open streams (caps, re-authorization). */
    streams: StreamRegistry;
    /** The words executions are recorded under (the served kinds' recordedKinds). */
    recordedKinds: readonly string[];
  },
): void {
  const heartbeatMs = deps.events?.heartbeatMs ?? 15_000;
  // Open streams end when the app closes; otherwise they would hold the server open forever.
  const closing = new AbortController();
  app.addHook("preClose", (done) => {
    closing.abort();
    done();
  });

  const stream = (
    req: FastifyRequest,
    reply: FastifyReply,
    apiKeyId: number,
    q: EventsQuery,
  ): FastifyReply => {
    const out = new PassThrough();
    const gone = new AbortController();
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    const opened = deps.streams.open(
      req.ip,
      {
        // The key no longer authorizes the stream: say why (the WebSocket's close code and reason), then end.
        end: (code, reason) => {
          out.write(`event: closed\ndata: ${JSON.stringify({ code, reason })}\n\n`);
          stop();
        },
      },
      req.custodyKey ?? undefined,
    );
    if (typeof opened === "string") {
      void reply.header("Retry-After", String(STREAM_CAP_RETRY_SECONDS));
      throw new ApiError(429, opened);
    }
    const stop = (): void => {
      opened.release();
      gone.abort();
      clearInterval(heartbeat);
      out.end();
    };
    req.raw.once("close", stop);
    closing.signal.addEventListener("abort", stop, { once: true });
    const heartbeat = setInterval(() => out.write(": heartbeat\n\n"), heartbeatMs);
    // The first line (`: connected`, the stream's `ready`) flushes the headers, so the client knows it is connected.
    void (async () => {
      try {
        for await (const item of streamEvents(deps.store, apiKeyId, q, signal, {
          ...(deps.events?.pollMs !== undefined ? { pollMs: deps.events.pollMs } : {}),
        })) {
          if (!out.write(sseMessage(item))) await new Promise((r) => out.once("drain", r));
        }
      } catch (e) {
        req.log.warn({ err: { message: (e as Error).message } }, "event stream ended by an error");
      } finally {
        stop();
      }
    })();
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-cache, no-transform")
      .header("x-accel-buffering", "no")
      .send(out);
  };

  app.get(
    "/v1/events",
    {
      schema: {
        tags: ["events"],
        security: apiKeySecurity,
        summary:
          "This API key's execution events: a Server-Sent Events stream (resume with Last-Event-ID or ?after=), " +
          "or a page of events with Accept: application/json",
        headers: {
          type: "object",
          properties: {
            "last-event-id": {
              type: "string",
              description: "resume after this event id (wins over ?after=)",
            },
          },
        },
        querystring: {
          type: "object",
          properties: {
            after: {
              type: "string",
              description:
                "event id to resume after; stream without it: new events only; page without it: from the oldest retained",
            },
            limit: { description: `page size of the JSON form, 1 to ${EVENTS_MAX_LIMIT} (default 100)` },
            types: {
              type: "string",
              description: `comma-separated event types, each one of ${EVENT_TYPES.join(", ")}`,
            },
            wallet: { type: "string", description: "only events of executions involving this wallet" },
            kind: { type: "string", description: `only this kind: ${deps.recordedKinds.join(", ")}` },
          },
        },
        response: {
          200: {
            description:
              "text/event-stream: `id: <event id>` + `data: <event JSON>` per event, `event: gap` when the cursor is " +
              "older than the retention, a `: heartbeat` comment every 15 s, and `event: closed` (data `{code, reason}`: " +
              "4401 revoked or expired, 4403 frozen) before the stream ends when its key stops authorizing it; " +
              "application/json: a page",
            content: {
              "text/event-stream": { schema: { type: "string" } },
              "application/json": { schema: pageSchema },
            },
          },
          400: errorSchema,
          ...authErrors,
          429: {
            ...errorSchema,
            description:
              "A request budget of this key (or IP) is spent (retry after Retry-After), or its open streams are at the cap.",
          },
        },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const parsed = parseEventsQuery(
        req.query as Record<string, unknown>,
        req.headers["last-event-id"],
        deps.recordedKinds,
      );
      // Issue 19: a wallet-bound key sees only its wallets' events (filtered in the query).
      const only = req.custodyKey?.wallets;
      const q = only != null ? { ...parsed, onlyWallets: only } : parsed;
      if (wantsJson(req)) return eventsPage(deps.store, key.id, q);
      return stream(req, reply, key.id, q);
    },
  );
}
