/**
 * A bare JSON-RPC 2.0 POST, for tests and benches that talk to an RPC or relay URL without a client
 * library. Kept free of other imports so the baseline client's own process loads nothing else.
 */

/** Send options of a transaction that skips preflight and the node's retries (what a latency-minded bot sends). */
export const SEND_UNCHECKED = { encoding: "base64", skipPreflight: true, maxRetries: 0 } as const;

/** POSTs one JSON-RPC call to `url`; returns the HTTP status and the parsed body, whatever they say. */
export async function postJsonRpc<B = unknown>(
  url: string,
  method: string,
  params: unknown[],
  id = 1,
): Promise<{ status: number; body: B }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  return { status: res.status, body: (await res.json()) as B };
}
