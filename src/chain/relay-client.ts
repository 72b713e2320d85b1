import { createHttpFetch } from "./http-fetch.js";
import { createJsonRpcTransport, type FetchLike } from "./json-rpc.js";
import { TransportError } from "./upstream-errors.js";

/** Options of the submission relay client. */
export interface RelayClientOptions {
  /** Full JSON-RPC endpoint of the relay (e.g. `https://…/fast`, the localnet's `${base}/relay`). */
  url: string;
  timeoutMs: number;
  fetch?: FetchLike;
  headers?: Record<string, string>;
}

/** A single-transaction submission relay (Helius Sender / Jito sendTransaction shape). */
export interface RelayClient {
  /**
   * Submits signed bytes once; resolves to the signature the relay reports. The one retry: a connection that
   * died before any HTTP answer (a pooled socket the relay had just closed) is sent again on a fresh one.
   */
  sendTransaction(wire: Uint8Array): Promise<string>;
}

/** Builds the relay client. */
export function createRelayClient(options: RelayClientOptions): RelayClient {
  // The same signed bytes can land once at most, so repeating an unanswered send cannot double-trade.
  const transport = createJsonRpcTransport({
    ...options,
    fetch: options.fetch ?? createHttpFetch({ retryUnanswered: true }),
  });
  return {
    async sendTransaction(wire) {
      // Relays require skipPreflight and ask for maxRetries 0: we rebroadcast ourselves while confirming.
      const res = await transport.call("sendTransaction", [
        // A view of the bytes, not Buffer.from(wire)'s copy of them.
        Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64"),
        { encoding: "base64", skipPreflight: true, maxRetries: 0 },
      ]);
      if (typeof res !== "string")
        throw new TransportError("sendTransaction", "relay result is not a signature");
      return res;
    },
  };
}
