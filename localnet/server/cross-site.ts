/**
 * The localnet is a sandbox anyone on the machine may drive, but not a web page: a page can POST text/plain
 * to 127.0.0.1 without a preflight, and DNS rebinding can point a foreign name at it. So every request but
 * the health probe must name a loopback Host, and every POST must be application/json (which a browser only
 * sends cross-origin after a CORS preflight the localnet never grants). The PubSub WebSocket's upgrade gets the
 * same Host rule and, since a browser opens a WebSocket to any origin without a preflight, refuses an Origin
 * that is not loopback too (issue 29, finding 17).
 */
import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The Host header's name without its port, lower-cased ("" when absent). */
function hostName(host: string | undefined): string {
  if (host === undefined) return "";
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.indexOf(":");
  return colon >= 0 && h.indexOf(":", colon + 1) < 0 ? h.slice(0, colon) : h;
}

/** Why the request is refused (status and message), or undefined when it may proceed. */
export function crossSiteRefusal(req: IncomingMessage): { status: number; error: string } | undefined {
  if (!LOOPBACK_HOSTS.has(hostName(req.headers.host)))
    return {
      status: 403,
      error: "the localnet answers only requests whose Host is loopback (127.0.0.1, localhost, [::1])",
    };
  if (req.method === "POST") {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") return { status: 415, error: "content-type must be application/json" };
  }
  return undefined;
}

/** Why a PubSub upgrade is refused (a loopback Host, and no Origin or a loopback one), or undefined. */
export function upgradeRefusal(req: IncomingMessage): { status: number; error: string } | undefined {
  const host = crossSiteRefusal(req);
  if (host !== undefined) return host;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let name: string;
  try {
    name = hostName(new URL(origin).host);
  } catch {
    name = "";
  }
  if (!LOOPBACK_HOSTS.has(name))
    return { status: 403, error: "the localnet accepts WebSockets only from a loopback Origin (or none)" };
  return undefined;
}
