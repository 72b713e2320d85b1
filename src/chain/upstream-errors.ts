/**
 * Typed failures of upstream calls (RPC, submission relay, bundle relay). Each carries the upstream's own
 * detail so the API can answer 502 with it; none of them carries request bodies (signed bytes stay out of logs).
 */

/** The upstream answered with a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(`${method}: RPC error ${code}: ${rpcMessage}`);
    this.name = "RpcError";
  }
}

/** The upstream answered with a non-2xx HTTP status (and no usable JSON-RPC body). */
export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method}: HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "HttpError";
  }
}

/** The call did not answer within its per-call timeout. */
export class TimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

/** The connection failed (refused, reset, DNS) or the body was not JSON-RPC. */
export class TransportError extends Error {
  constructor(
    readonly method: string,
    detail: string,
  ) {
    super(`${method}: ${detail}`);
    this.name = "TransportError";
  }
}

/** Any failure of an upstream call. */
export type UpstreamError = RpcError | HttpError | TimeoutError | TransportError;

/** True for the typed upstream failures above. */
export function isUpstreamError(e: unknown): e is UpstreamError {
  return (
    e instanceof RpcError ||
    e instanceof HttpError ||
    e instanceof TimeoutError ||
    e instanceof TransportError
  );
}

// JSON-RPC codes that mean "try again later" rather than "your request is wrong": node behind (-32005),
// internal error (-32603), Jito rate limit (-32097), min context slot not reached (-32016), block status not yet
// available (-32014).
const TRANSIENT_RPC_CODES = new Set([-32005, -32603, -32097, -32016, -32014]);

/** True when repeating the same read may succeed: timeouts, connection failures, 429, 5xx, transient RPC codes. */
export function isTransient(e: unknown): boolean {
  if (e instanceof TimeoutError || e instanceof TransportError) return true;
  if (e instanceof HttpError) return e.status === 429 || e.status >= 500;
  if (e instanceof RpcError) return TRANSIENT_RPC_CODES.has(e.code);
  return false;
}

/** A short text for an upstream failure, fit for a 502 detail. */
export function upstreamDetail(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
