/**
 * The events stream as an async iterator that survives dropped connections: it reconnects with the last id it
 * yielded as Last-Event-ID, so every event arrives once, in order. SSE framing is parsed by eventsource-parser.
 */
import { createParser } from "eventsource-parser";
import { LaserTradeError } from "./errors.js";
import type { paths } from "./generated/openapi.js";

/** One execution event (GET /v1/events). */
export type ExecutionEvent =
  paths["/v1/events"]["get"]["responses"][200]["content"]["application/json"]["events"][number];

/** Filters of the stream. */
export interface EventsQuery {
  /** Resume after this event id (default: new events only). */
  after?: number | string;
  types?: string[];
  wallet?: string;
  kind?: string;
}

/** Options of `events()`. */
export interface EventsOptions {
  signal?: AbortSignal;
  /** Wait before reconnecting after a dropped connection (default 1 s). */
  reconnectDelayMs?: number;
  /** Called when the cursor was older than the retention (events after it were purged). */
  onGap?: (info: { after: string; oldest_retained: number | null }) => void;
}

/** What the stream needs from the client. */
export interface StreamTarget {
  baseUrl: string;
  apiKey: string;
  fetch: (input: Request, init?: RequestInit) => Promise<Response>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

/** Every event after the cursor, reconnecting after a drop, until `signal` aborts. */
export async function* eventStream(
  target: StreamTarget,
  query: EventsQuery = {},
  options: EventsOptions = {},
): AsyncGenerator<ExecutionEvent> {
  let lastId: string | undefined = query.after === undefined ? undefined : String(query.after);
  const params = new URLSearchParams();
  if (query.types !== undefined && query.types.length > 0) params.set("types", query.types.join(","));
  if (query.wallet !== undefined) params.set("wallet", query.wallet);
  if (query.kind !== undefined) params.set("kind", query.kind);
  const search = params.toString();
  // A function, not a narrowed property: the signal changes while we await.
  const aborted = (): boolean => options.signal?.aborted === true;
  while (!aborted()) {
    const headers: Record<string, string> = { accept: "text/event-stream", "x-api-key": target.apiKey };
    if (lastId !== undefined) headers["last-event-id"] = lastId;
    let response: Response;
    try {
      // The signal goes to fetch itself, not only on the Request: on Node 20 a Request follows its signal through
      // a weak reference that a garbage collection breaks, and then aborting no longer stops this request (the
      // CLI stayed alive until the execution was final).
      const init = options.signal !== undefined ? { signal: options.signal } : {};
      response = await target.fetch(
        new Request(`${target.baseUrl}/v1/events${search === "" ? "" : `?${search}`}`, { headers, ...init }),
        init,
      );
    } catch {
      await sleep(options.reconnectDelayMs ?? 1_000, options.signal);
      continue;
    }
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      // A refused request (bad cursor, bad key) is not retried; a 5xx is.
      if (response.status < 500 && response.status !== 429)
        throw LaserTradeError.fromResponse(response.status, body);
      await sleep(options.reconnectDelayMs ?? 1_000, options.signal);
      continue;
    }
    const queue: ExecutionEvent[] = [];
    const parser = createParser({
      onEvent: (m) => {
        if (m.event === "gap")
          options.onGap?.(JSON.parse(m.data) as { after: string; oldest_retained: number | null });
        else if (m.event === undefined || m.event === "message")
          queue.push(JSON.parse(m.data) as ExecutionEvent);
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        while (queue.length > 0) {
          const e = queue.shift()!;
          lastId = String(e.id);
          yield e;
        }
      }
    } catch {
      // dropped connection or abort: reconnect below (or stop when aborted)
    }
    if (aborted()) return;
    await sleep(options.reconnectDelayMs ?? 1_000, options.signal);
  }
}
