import { createHttpFetch } from "./http-fetch.js";
import { HttpError, RpcError, TimeoutError, TransportError, isTransient } from "./upstream-errors.js";

/** The `fetch` shape the clients need (Node's global fetch satisfies it; tests inject their own). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

/**
 * Retry policy for reads: up to `retries` extra attempts, full-jitter backoff capped at `maxDelayMs`, and
 * (with `budgetMs`) no retry that would start after the read has already spent `budgetMs` in all.
 */
export interface RetryPolicy {
  retries: number;
  /** Time budget of one read, all attempts and waits; undefined = only `retries` bounds it. */
  budgetMs?: number;
  /** Monotonic ms for the budget; default performance.now. */
  now?: () => number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Uniform [0, 1); injected so tests can pin the jitter. */
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** Options of a JSON-RPC transport bound to one URL. */
export interface JsonRpcTransportOptions {
  url: string;
  timeoutMs: number;
  fetch?: FetchLike;
  headers?: Record<string, string>;
}

/** A JSON-RPC 2.0 caller for one endpoint. */
export interface JsonRpcTransport {
  /** One attempt: no retry. `path` is appended to the base URL. */
  call(method: string, params: unknown[], path?: string): Promise<unknown>;
  /** Reads only: retries transient failures per `policy`. */
  callWithRetry(method: string, params: unknown[], policy: RetryPolicy, path?: string): Promise<unknown>;
}

/** Full jitter: a uniform delay in [0, min(max, base * 2^attempt)). */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs" | "random">,
) {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

/** Sleeps with a real timer. */
export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds a transport; without an injected fetch it uses its own keep-alive `node:http` client (http-fetch.ts). */
export function createJsonRpcTransport(options: JsonRpcTransportOptions): JsonRpcTransport {
  const doFetch: FetchLike = options.fetch ?? createHttpFetch();
  // The same headers on every call: built once (a fetch must not change the object it is given).
  const headers: Record<string, string> = Object.freeze({
    "content-type": "application/json",
    ...options.headers,
  }) as Record<string, string>;
  let nextId = 1;

  async function call(method: string, params: unknown[], path = ""): Promise<unknown> {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    // A timer cleared once the answer is read, not AbortSignal.timeout: that one costs about 8 µs of CPU per
    // call and keeps its timer (and signal) alive for the whole timeout after the call is done (issue 18).
    const abort = new AbortController();
    const signal = abort.signal;
    const timer = setTimeout(() => abort.abort(), options.timeoutMs);
    timer.unref();
    let status: number;
    let text: string;
    try {
      const res = await doFetch(options.url + path, {
        method: "POST",
        headers,
        body,
        signal,
      });
      status = res.status;
      text = await res.text();
    } catch (e) {
      if (signal.aborted) throw new TimeoutError(method, options.timeoutMs);
      throw new TransportError(method, describeCause(e));
    } finally {
      clearTimeout(timer);
    }
    let parsed: unknown;
    try {
      parsed = parseJsonWithBigInts(text);
    } catch {
      if (status < 200 || status >= 300) throw new HttpError(method, status, text);
      throw new TransportError(method, "response is not JSON");
    }
    // Classify by HTTP status first: relays reuse JSON-RPC codes with their own meanings on 4xx/5xx.
    if (status < 200 || status >= 300) {
      throw new HttpError(method, status, rpcErrorText(parsed) ?? text);
    }
    if (!isObject(parsed)) throw new TransportError(method, "response is not a JSON-RPC object");
    if (isObject(parsed.error)) {
      const err = parsed.error;
      throw new RpcError(
        method,
        typeof err.code === "number" ? err.code : Number(err.code ?? 0),
        typeof err.message === "string" ? err.message : JSON.stringify(err.message),
        err.data,
      );
    }
    if (!("result" in parsed)) throw new TransportError(method, "response has neither result nor error");
    return parsed.result;
  }

  async function callWithRetry(method: string, params: unknown[], policy: RetryPolicy, path = "") {
    const now = policy.now ?? (() => performance.now());
    const started = now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(method, params, path);
      } catch (e) {
        if (attempt >= policy.retries || !isTransient(e)) throw e;
        const delay = backoffDelayMs(attempt, policy);
        if (policy.budgetMs !== undefined && now() - started + delay >= policy.budgetMs) throw e;
        await policy.sleep(delay);
      }
    }
  }

  return { call, callWithRetry };
}

function describeCause(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) return `${e.message}: ${cause.message}`;
    return e.message;
  }
  return String(e);
}

function rpcErrorText(parsed: unknown): string | undefined {
  if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === "string") {
    return `${String(parsed.error.code ?? "")} ${parsed.error.message}`.trim();
  }
  return undefined;
}

/** Narrows to a plain object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * JSON.parse that keeps integers beyond 2^53 exact: outside strings, any integer literal of 16+ digits is
 * turned into a string before parsing (u64 fields such as rentEpoch = u64::MAX would otherwise be rounded).
 * Callers decode u64 fields with `toBigInt`, which accepts both forms.
 */
export function parseJsonWithBigInts(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = "";
  let i = 0;
  let inString = false;
  let runStart = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i += 2;
      else {
        if (c === 34 /* " */) inString = false;
        i++;
      }
      continue;
    }
    if (c === 34) {
      inString = true;
      i++;
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const literal = text.slice(i, j);
      if (/^-?\d{16,}$/.test(literal)) {
        out += text.slice(runStart, i) + '"' + literal + '"';
        runStart = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  return JSON.parse(out + text.slice(runStart));
}

function isNumberChar(c: number): boolean {
  // digits, '.', 'e', 'E', '+', '-'
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/** Decodes a u64/i64 that arrives as a JSON number or (when large) a string. */
export function toBigInt(v: unknown, what = "integer"): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  throw new TypeError(`expected ${what}, got ${typeof v === "string" ? v : typeof v}`);
}

/** Decodes a small integer (slot, block height, count) that fits a JS number. */
export function toSafeNumber(v: unknown, what = "integer"): number {
  const b = toBigInt(v, what);
  if (b > BigInt(Number.MAX_SAFE_INTEGER) || b < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new TypeError(`${what} out of safe range: ${b}`);
  }
  return Number(b);
}
