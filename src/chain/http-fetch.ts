/**
 * The JSON-RPC transports' default HTTP client: `node:http` / `node:https` with a keep-alive agent per
 * client. Node's global fetch (undici) also keeps connections alive, but its Request/Response/stream
 * machinery costs several times more CPU per small JSON call, which is most of a trade's transport cost.
 */
import http from "node:http";
import https from "node:https";
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
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A FetchLike over keep-alive agents (one for http, one for https); idle sockets never hold the process open. */
export function createHttpFetch(options: HttpFetchOptions = {}): FetchLike {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    scheduling: "lifo" as const,
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
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: init.method,
          headers: { ...init.headers, "content-length": String(body.length) },
          agent: secure ? agents.https : agents.http,
          signal: init.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let ended = false;
          let received = 0;
          res.on("data", (c: Buffer) => {
            received += c.length;
            if (received > maxBytes) {
              ended = true;
              reject(new Error(`response body exceeds ${maxBytes} bytes`));
              req.destroy();
              return;
            }
            chunks.push(c);
          });
          res.on("end", () => {
            ended = true;
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(text) });
          });
          res.on("error", reject);
          // A connection cut mid-body: no 'end', and not every Node version emits 'error' for it.
          res.on("close", () => {
            if (!ended) reject(new Error("connection closed before the response ended"));
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  };
}
