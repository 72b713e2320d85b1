/**
 * The JSON-RPC transports' default HTTP client: `node:http` / `node:https` with a keep-alive agent per
 * client. Node's global fetch (undici) also keeps connections alive, but its Request/Response/stream
 * machinery costs several times more CPU per small JSON call, which is most of a trade's transport cost.
 */
import http from "node:http";
import https from "node:https";
import { extend } from "../core/extend.js";
import type { FetchLike } from "./json-rpc.js";

/** Options of `createHttpFetch`. */
export interface HttpFetchOptions {
  /** Concurrent connections per origin. Default 256. */
  maxSockets?: number;
  /**
   * Largest response body read (bytes); a longer one is cut off and the call fails, so a faulty or hostile
   * upstream cannot fill the service's memory. Default 32 MiB (a 100-account read with full data is ~1 MiB).
   */
  maxResponseBytes?: number;
  /**
   * Send once more, on a fresh connection, a request whose connection failed (ECONNRESET, EPIPE, "socket hang
   * up") before any HTTP answer arrived. Only for calls that may be repeated: a relay send of signed bytes
   * (the same signature can land once at most). Default false.
   */
  retryUnanswered?: boolean;
  /**
   * Idle keep-alive sockets are closed after this many ms. Default 4 000: shorter than the 5 s keep-alive
   * most HTTP servers (Node's default, nginx-style proxies in front of relays) keep an idle connection,
   * so the pool never hands out a socket the server is closing at that moment — the send that then dies
   * with "socket hang up" before the server ever saw it.
   */
  idleSocketTimeoutMs?: number;
}

/** Default idle lifetime of a pooled socket (see `HttpFetchOptions.idleSocketTimeoutMs`). */
export const DEFAULT_IDLE_SOCKET_TIMEOUT_MS = 4_000;

const UNANSWERED_CODES = new Set(["ECONNRESET", "EPIPE"]);

/** Whether a request error means the connection died before any answer (nothing proves the server read it). */
export function isUnansweredConnectionError(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (err === null || typeof err !== "object") return false;
  if (typeof err.code === "string" && UNANSWERED_CODES.has(err.code)) return true;
  return err.message === "socket hang up";
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A FetchLike over keep-alive agents (one for http, one for https); idle sockets never hold the process open. */
export function createHttpFetch(options: HttpFetchOptions = {}): FetchLike {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    scheduling: "lifo" as const,
    // The agent destroys a free socket idle this long (an active request only gets a 'timeout' event).
    timeout: options.idleSocketTimeoutMs ?? DEFAULT_IDLE_SOCKET_TIMEOUT_MS,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const targets = new Map<string, URL>();
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return (url, init) => {
    let target = targets.get(url);
    if (target === undefined) {
      target = new URL(url);
      if (targets.size < 64) targets.set(url, target);
    }
    const secure = target.protocol === "https:";
    const body = Buffer.from(init.body, "utf8");
    const signal = init.signal;
    const once = (fresh: boolean): Promise<{ status: number; text(): Promise<string> }> =>
      new Promise((resolve, reject) => {
        // The signal is watched here rather than passed to http.request: Node's own wiring (an abort listener
        // plus an end-of-stream watcher on the request) allocated about 2.4 KB per call (issue 18); the abort
        // itself is the same, the request destroyed with an AbortError whose cause is the signal's reason.
        const onAbort = (): void => {
          req.destroy(new AbortError(signal.reason));
        };
        const fail = (e: unknown): void => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        };
        const req = (secure ? https : http).request(
          {
            protocol: target.protocol,
            hostname: target.hostname,
            port: target.port,
            path: target.pathname + target.search,
            method: init.method,
            // Not `{ ...init.headers, ... }`: a literal opening with a spread is slow on Node 20 (core/extend.ts).
            headers: extend(init.headers, { "content-length": String(body.length) }),
            // A retry goes on a connection of its own (agent false: not pooled, closed after the answer).
            agent: fresh ? false : secure ? agents.https : agents.http,
          },
          (res) => {
            const chunks: Buffer[] = [];
            let ended = false;
            let received = 0;
            res.on("data", (c: Buffer) => {
              received += c.length;
              if (received > maxBytes) {
                ended = true;
                fail(new Error(`response body exceeds ${maxBytes} bytes`));
                req.destroy();
                return;
              }
              chunks.push(c);
            });
            res.on("end", () => {
              ended = true;
              signal.removeEventListener("abort", onAbort);
              const text = Buffer.concat(chunks).toString("utf8");
              resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(text) });
            });
            res.on("error", fail);
            // A connection cut mid-body: no 'end', and not every Node version emits 'error' for it.
            res.on("close", () => {
              if (!ended) fail(new Error("connection closed before the response ended"));
            });
          },
        );
        let answered = false;
        req.on("response", () => {
          answered = true;
        });
        req.on("error", (e) => fail(answered ? e : new UnansweredError(e)));
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, ONCE);
        req.end(body);
      });
    return sendWithRetry(once, options.retryUnanswered === true, signal);
  };
}

/**
 * Runs `once(false)`; with `retry`, a call whose connection died unanswered runs once more as `once(true)` (a fresh
 * connection). Errors come out as the client's own (UnansweredError unwrapped).
 */
export function sendWithRetry<T>(
  once: (fresh: boolean) => Promise<T>,
  retry: boolean,
  signal: AbortSignal,
): Promise<T> {
  if (!retry) return once(false).catch(unwrap);
  return once(false).catch((e: unknown) => {
    // Any HTTP answer (even a 5xx) is final; only a connection that died unanswered is tried once more.
    if (e instanceof UnansweredError && isUnansweredConnectionError(e.cause) && !signal.aborted)
      return once(true).catch(unwrap);
    return unwrap(e);
  });
}

const ONCE = { once: true } as const;

/** What Node's http.request raises when its `signal` aborts (same name, code and message). */
export class AbortError extends Error {
  readonly code = "ABORT_ERR";
  constructor(reason: unknown) {
    super("The operation was aborted", { cause: reason });
    this.name = "AbortError";
  }
}

/** A request error raised before any response arrived (the original error is `cause`). */
export class UnansweredError extends Error {
  constructor(cause: unknown) {
    super((cause as Error | null)?.message ?? "request failed", { cause });
  }
}

/** The original error of an UnansweredError (callers see Node's own error). */
export function unwrap(e: unknown): never {
  throw e instanceof UnansweredError ? e.cause : e;
}
