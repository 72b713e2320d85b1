/**
 * Which URLs a webhook may point at: http(s) without credentials, and (outside the sandbox, unless
 * WEBHOOK_ALLOW_PRIVATE=true) no host that resolves to a blocked address (address-policy.ts), so the service
 * cannot be turned against its own network. Checked at creation (a 400 early) and resolved again once per
 * delivery: the delivery connects to the address that was checked then (pinned-request.ts), never to a second
 * answer of the resolver (DNS rebinding).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { badRequest, EVENTS } from "../../core/errors.js";
import { isBlockedAddress } from "./address-policy.js";

/** Resolves a host name to its addresses. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver. */
export const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Options of `checkWebhookUrl` and `resolveDeliveryTarget`. */
export interface UrlPolicy {
  allowPrivate: boolean;
  lookup?: HostLookup;
}

/** The URL when its shape is acceptable (http(s), no credentials, at most 2048 characters); undefined otherwise. */
function parseWebhookUrl(raw: unknown): URL | undefined {
  if (typeof raw !== "string" || raw.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "")
    return undefined;
  return url;
}

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

type Resolved = { addresses: string[] } | { problem: "private" | "unresolvable" };

/**
 * Resolves the URL's host once; "private" for a localhost name (unless private addresses are allowed),
 * "unresolvable" when the resolver fails or answers nothing.
 */
async function resolveHost(url: URL, policy: UrlPolicy): Promise<Resolved> {
  const host = bareHost(url);
  if (isIP(host) !== 0) return { addresses: [host] };
  if (!policy.allowPrivate && (host === "localhost" || host.endsWith(".localhost")))
    return { problem: "private" };
  try {
    const addresses = await (policy.lookup ?? systemLookup)(host);
    return addresses.length === 0 ? { problem: "unresolvable" } : { addresses };
  } catch {
    return { problem: "unresolvable" };
  }
}

/** The URL, normalized, when a webhook may use it; a 400 naming the problem otherwise. */
export async function checkWebhookUrl(raw: unknown, policy: UrlPolicy): Promise<string> {
  const url = parseWebhookUrl(raw);
  if (url === undefined) throw badRequest(EVENTS.webhookUrlInvalid);
  if (policy.allowPrivate) return url.toString();
  const resolved = await resolveHost(url, policy);
  if ("problem" in resolved)
    throw badRequest(
      resolved.problem === "private" ? EVENTS.webhookUrlPrivate : EVENTS.webhookUrlUnresolvable,
    );
  if (resolved.addresses.some(isBlockedAddress)) throw badRequest(EVENTS.webhookUrlPrivate);
  return url.toString();
}

/** Where one delivery goes: the URL and the one address its connection is pinned to. */
export interface DeliveryTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a delivery was not attempted: the URL or an address is refused, or the host did not resolve. */
export type TargetRefusal = "blocked" | "unresolvable";

/**
 * Resolves the URL once for a delivery; every address the resolver answered is judged (one blocked refuses the
 * delivery, so a name answering a public and a private address cannot pick), and the first is the one to use.
 * With `allowPrivate` (sandbox, WEBHOOK_ALLOW_PRIVATE) nothing is judged, but the connection is pinned all the same.
 */
export async function resolveDeliveryTarget(
  raw: string,
  policy: UrlPolicy,
): Promise<DeliveryTarget | TargetRefusal> {
  const url = parseWebhookUrl(raw);
  if (url === undefined) return "blocked";
  const resolved = await resolveHost(url, policy);
  if ("problem" in resolved) return resolved.problem === "private" ? "blocked" : "unresolvable";
  if (!policy.allowPrivate && resolved.addresses.some(isBlockedAddress)) return "blocked";
  const address = resolved.addresses[0]!;
  const family = isIP(address);
  if (family !== 4 && family !== 6) return "blocked";
  return { url, address, family };
}
