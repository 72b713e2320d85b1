/**
 * Fan-out over several submission relays: the same signed bytes go to every relay in parallel and the send
 * resolves on the first acceptance. The others keep running in the background; their failures are reported
 * (logged and counted by the caller's observer), never thrown at the request.
 */
import type { RelayClient } from "./relay-client.js";
import { HttpError, RpcError, TimeoutError } from "./upstream-errors.js";

/** A relay client with the name used in logs and metrics (a preset name, never a URL). */
export interface NamedRelay {
  name: string;
  client: RelayClient;
}

/** Why a relay send failed, as a closed set of metric label values. */
export type RelayErrorReason = "http_429" | "http_4xx" | "http_5xx" | "rpc_error" | "timeout" | "transport";

/** Told of every relay send: acceptance with its latency, or failure with its reason. */
export interface RelayObserver {
  accepted(relay: string, seconds: number): void;
  failed(relay: string, reason: RelayErrorReason, error: unknown): void;
}

/** The metric label of a relay failure. */
export function relayErrorReason(e: unknown): RelayErrorReason {
  if (e instanceof HttpError) {
    if (e.status === 429) return "http_429";
    return e.status >= 500 ? "http_5xx" : "http_4xx";
  }
  if (e instanceof RpcError) return "rpc_error";
  if (e instanceof TimeoutError) return "timeout";
  return "transport";
}

/** A refusal (HTTP or JSON-RPC error) proves the relay did not take the bytes; anything else may hide a send. */
function refused(e: unknown): boolean {
  return e instanceof HttpError || e instanceof RpcError;
}

/**
 * One client over `relays`. With a single relay it behaves like that relay (plus the observer). When every
 * relay fails, the error thrown is a refusal only if every relay refused (so the caller can tell "certainly
 * not sent" from "maybe sent"); otherwise the first failure that may hide a send.
 */
export function createFanOutRelay(
  relays: readonly NamedRelay[],
  observer: RelayObserver | undefined,
  now: () => number = () => performance.now(),
): RelayClient {
  if (relays.length === 0) throw new RangeError("fan-out needs at least one relay");
  // One relay's send, told to the observer.
  const attempt = async (r: NamedRelay, wire: Uint8Array, t0: number): Promise<string> => {
    try {
      const signature = await r.client.sendTransaction(wire);
      observer?.accepted(r.name, (now() - t0) / 1000);
      return signature;
    } catch (e) {
      observer?.failed(r.name, relayErrorReason(e), e);
      throw e;
    }
  };
  // One relay (the common set-up): its own answer, without the per-send array and Promise.any that only a
  // race needs (Promise.any of one would reject with that relay's error too).
  if (relays.length === 1) {
    const only = relays[0]!;
    return { sendTransaction: (wire) => attempt(only, wire, now()) };
  }
  return {
    sendTransaction(wire) {
      const t0 = now();
      return Promise.any(relays.map((r) => attempt(r, wire, t0))).catch((e: unknown) => {
        const errors = e instanceof AggregateError ? (e.errors as unknown[]) : [e];
        throw errors.find((x) => !refused(x)) ?? errors[0];
      });
    },
  };
}
