/** What every resource group of the client calls through: the openapi-fetch client, the answer unwrapper, body helpers. */
import type { Client } from "openapi-fetch";
import { LaserTradeError } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { parseBody } from "./json.js";
import type * as T from "./types.js";

/** The typed openapi-fetch client of the service's paths (retries and the key header built in). */
export type Http = Client<paths>;

/** An openapi-fetch result read as text (the body is parsed by `unwrap`, lamport fields as bigint). */
export type RawResult = { data?: string; error?: unknown; response: Response };

/** Unwraps an openapi-fetch result: the parsed 200 body, or a LaserTradeError. */
export async function unwrap<R>(call: Promise<RawResult>): Promise<R> {
  let result: RawResult;
  try {
    result = await call;
  } catch (e) {
    if (e instanceof LaserTradeError) throw e;
    const err = e as Error & { cause?: { message?: string } };
    const why = err.cause?.message ?? err.message;
    throw new LaserTradeError(0, `network error: ${why}`);
  }
  if (!result.response.ok) throw LaserTradeError.fromResponse(result.response.status, result.error);
  return parseBody(result.data ?? "null") as R;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Options of an execution call: its Idempotency-Key (given or new) and signal. */
export function exec(options: T.CallOptions) {
  return {
    parseAs: "text" as const,
    params: { header: { "idempotency-key": options.idempotencyKey ?? newIdempotencyKey() } },
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

/** `f(v)`, or undefined when `v` is. */
export function optional<V, R>(v: V | undefined, f: (v: V) => R): R | undefined {
  return v === undefined ? undefined : f(v);
}

/** Drops undefined fields so the body carries only what the caller set. */
export function defined<O extends object>(o: O): O {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as O;
}
