/**
 * The POST of one webhook delivery over node:http(s), connected to the address the URL policy checked
 * (issue 29, finding 6): the socket's `lookup` answers that address and nothing else, so a second DNS answer
 * cannot send it elsewhere (rebinding), while the Host header and TLS (SNI, certificate) still name the host.
 * One connection per attempt (no agent: a pooled socket could have been opened to another address); redirects
 * are never followed (node:http does not); the answer's body is not read.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { DeliveryTarget } from "./url-policy.js";

/** What one delivery sends. */
export interface OutboundPost {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** How a POST ended: an HTTP answer (its status), no answer in time, or no HTTP exchange at all. */
export type PostAnswer = { kind: "answered"; status: number } | { kind: "timeout" } | { kind: "failed" };

/** Sends one delivery to its pinned target (tests inject their own). */
export type WebhookTransport = (target: DeliveryTarget, post: OutboundPost) => Promise<PostAnswer>;

/** A socket lookup that answers `address` whatever name it is asked for. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    // Node 20 asks for every address (`all`) when it races the families (autoSelectFamily).
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** POSTs to the target's URL over a connection to `target.address`; never rejects. */
export const pinnedPost: WebhookTransport = (target, post) =>
  new Promise<PostAnswer>((resolve) => {
    const { url } = target;
    const tls = url.protocol === "https:";
    let req: ClientRequest | undefined;
    let settled = false;
    const settle = (answer: PostAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => settle({ kind: "timeout" }), post.timeoutMs);
    try {
      req = (tls ? httpsRequest : httpRequest)(
        {
          method: "POST",
          host: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port === "" ? (tls ? 443 : 80) : Number(url.port),
          path: `${url.pathname}${url.search}`,
          headers: { ...post.headers, "content-length": String(Buffer.byteLength(post.body)) },
          agent: false,
          lookup: pinnedLookup(target.address, target.family),
        },
        (res: IncomingMessage) => {
          settle({ kind: "answered", status: res.statusCode ?? 0 });
          res.destroy();
        },
      );
      req.on("error", () => settle({ kind: "failed" }));
      req.end(post.body);
    } catch {
      settle({ kind: "failed" });
    }
  });
