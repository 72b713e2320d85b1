/**
 * The REST submission of bloXroute's Trader API and NextBlock: `POST /api/v2/submit` with
 * `{"transaction":{"content":"<base64>"},"frontRunningProtection":true,"skipPreFlight":true}` and the key in
 * `Authorization`; NextBlock answers `{"signature": …}` (bloXroute's answer shape is not documented: the
 * signature is the transaction's first one either way, known before sending).
 */
import { encodeBase58 } from "../../core/base58.js";
import { createHttpFetch } from "../http-fetch.js";
import type { FetchLike } from "../json-rpc.js";
import type { RelayClient } from "../relay-client.js";
import { HttpError, TimeoutError, TransportError } from "../upstream-errors.js";

/** Options of the REST submission client. */
export interface SubmitV2Options {
  /** The full `/api/v2/submit` URL. */
  url: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Ask the provider to keep the transaction from front-running (its MEV protection). Default true. */
  frontRunningProtection?: boolean;
  fetch?: FetchLike;
}

/** The first signature of a wire transaction (after its one-byte signature count), base58. */
function firstSignature(wire: Uint8Array): string {
  return encodeBase58(wire.subarray(1, 65));
}

/** A RelayClient speaking the REST submit of bloXroute / NextBlock. */
export function createSubmitV2Client(options: SubmitV2Options): RelayClient {
  const fetch = options.fetch ?? createHttpFetch({ retryUnanswered: true });
  return {
    async sendTransaction(wire) {
      const body = JSON.stringify({
        transaction: {
          content: Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64"),
        },
        frontRunningProtection: options.frontRunningProtection ?? true,
        skipPreFlight: true,
      });
      const signal = AbortSignal.timeout(options.timeoutMs);
      let res: { status: number; text(): Promise<string> };
      try {
        res = await fetch(options.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...options.headers },
          body,
          signal,
        });
      } catch (e) {
        if (signal.aborted) throw new TimeoutError("submit", options.timeoutMs);
        throw new TransportError("submit", (e as Error).message);
      }
      const text = await res.text();
      if (res.status < 200 || res.status >= 300) throw new HttpError("submit", res.status, text);
      const expected = firstSignature(wire);
      let answered: unknown;
      try {
        answered = (JSON.parse(text) as { signature?: unknown } | null)?.signature;
      } catch {
        answered = undefined;
      }
      if (answered !== undefined && answered !== expected) {
        throw new TransportError("submit", "the answer names another signature than the transaction's");
      }
      return expected;
    },
  };
}
