/**
 * The bench's load client (bench/load.ts): the same FetchLike as src/chain/http-fetch.ts, over undici's `Agent`
 * driven through its `dispatch` handler interface (branch relayhttp, issue 18, sixth session). It costs about
 * 35 µs less CPU per call than `node:http`'s client, and the bench client shares this 2-core machine with the
 * service it measures; the service itself stays on `node:http`, because importing undici grows its RSS by
 * 10-19 MB (docs/decisions.md). A dev dependency only.
 */
import { Agent, Client, type Dispatcher } from "undici";
import type { FetchLike } from "../src/chain/json-rpc.js";
import {
  DEFAULT_IDLE_SOCKET_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  AbortError,
  UnansweredError,
  sendWithRetry,
  type HttpFetchOptions,
} from "../src/chain/http-fetch.js";

/** Where a URL's requests go: the pool's key and the request target. */
interface Target {
  origin: string;
  path: string;
}

/** A FetchLike over one keep-alive agent (pools per origin, http and https); idle sockets never hold the process open. */
export function createHttpFetch(options: HttpFetchOptions = {}): FetchLike {
  const idleMs = options.idleSocketTimeoutMs ?? DEFAULT_IDLE_SOCKET_TIMEOUT_MS;
  const agent = new Agent({
    connections: options.maxSockets ?? 256,
    // One request per connection at a time, as node:http: a connection that dies fails one send only.
    pipelining: 1,
    keepAliveTimeout: idleMs,
    // A server's `Keep-Alive: timeout=N` hint (less undici's 2 s margin) may shorten the idle life, never lengthen it.
    keepAliveMaxTimeout: idleMs,
    // The caller's signal bounds every call (json-rpc's timer); undici's own timers would be a second clock
    // per request for nothing, as node:http had none.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const targets = new Map<string, Target>();
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return (url, init) => {
    let target = targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (targets.size < 64) targets.set(url, target);
    }
    const t = target;
    const once = (fresh: boolean): Promise<{ status: number; text(): Promise<string> }> =>
      new Promise((resolve, reject) => {
        const call = new Call(init.signal, maxBytes, resolve, reject);
        if (init.signal.aborted) return call.abort();
        init.signal.addEventListener("abort", call, ONCE);
        const request: Dispatcher.DispatchOptions = {
          origin: t.origin,
          path: t.path,
          method: init.method as Dispatcher.HttpMethod,
          headers: init.headers,
          body: init.body,
        };
        if (!fresh) return void agent.dispatch(request, call);
        // A retry goes on a connection of its own, closed after the answer (node:http's `agent: false`).
        const client = new Client(t.origin, { pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
        request.reset = true;
        client.dispatch(request, call);
        void client.close().catch(() => undefined);
      });
    return sendWithRetry(once, options.retryUnanswered === true, init.signal);
  };
}

const ONCE = { once: true } as const;

type Answer = { status: number; text(): Promise<string> };

/**
 * One request's undici handler, which is also its abort listener (one object per call, no closures). It
 * settles the caller's promise once: with the answer when the body has ended, or with the first error.
 */
class Call implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private answered = false;
  private status = 0;
  private received = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly signal: AbortSignal,
    private readonly maxBytes: number,
    private readonly resolve: (a: Answer) => void,
    private readonly reject: (e: unknown) => void,
  ) {}

  /** The signal's listener: the call fails at once; a request undici has started is cut (its socket destroyed). */
  handleEvent(): void {
    this.abort();
  }

  /** Fails the call with Node's AbortError (the signal's reason as its cause) and stops the request. */
  abort(): void {
    const error = new AbortError(this.signal.reason);
    this.fail(error);
    // Before undici starts the request there is no controller yet: onRequestStart aborts it then.
    this.controller?.abort(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new AbortError(this.signal.reason));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.answered = true;
    this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      const error = new Error(`response body exceeds ${this.maxBytes} bytes`);
      this.fail(error);
      controller.abort(error);
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener("abort", this);
    const text = Buffer.concat(this.chunks).toString("utf8");
    this.resolve({ status: this.status, text: () => Promise.resolve(text) });
  }

  onResponseError(_controller: Dispatcher.DispatchController, e: Error): void {
    if (this.answered) {
      // A connection cut mid-body: named as before, undici's error kept as the cause.
      this.fail(
        isSocketError(e) ? new Error("connection closed before the response ended", { cause: e }) : e,
      );
      return;
    }
    // No answer: node:http's name for a connection that closed under a request, so `retryUnanswered` and the
    // upstream error texts stay as they were.
    this.fail(new UnansweredError(isSocketError(e) ? socketHangUp(e) : e));
  }

  private fail(e: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener("abort", this);
    this.reject(e);
  }
}

/** undici's error for a connection closed or broken under a request (`SocketError`). */
function isSocketError(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === "UND_ERR_SOCKET";
}

/** Node's error for a request whose connection closed before any answer. */
function socketHangUp(cause: Error): Error {
  return Object.assign(new Error("socket hang up", { cause }), { code: "ECONNRESET" });
}
