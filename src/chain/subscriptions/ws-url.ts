/** The PubSub WebSocket URL of an RPC URL: same host, port and path, ws(s) instead of http(s). */

/** Derives RPC_WS_URL from RPC_URL (http → ws, https → wss); throws for another scheme. */
export function deriveWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  if (url.protocol === "http:") url.protocol = "ws:";
  else if (url.protocol === "https:") url.protocol = "wss:";
  else if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new Error(`cannot derive a WebSocket URL from ${url.protocol} RPC URL`);
  }
  return url.toString();
}
