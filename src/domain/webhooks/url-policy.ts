/**
 * Which URLs a webhook may point at: http(s) without credentials, and (outside the sandbox, unless
 * WEBHOOK_ALLOW_PRIVATE=true) no host that resolves to a loopback, private, link-local, shared or metadata
 * address, so the service cannot be turned against its own network. Checked at creation and before every send.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { badRequest, EVENTS } from "../../core/errors.js";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier NAT; also some clouds' metadata, e.g. 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including 169.254.169.254 (cloud metadata)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local (fd00:ec2::254 is AWS metadata over IPv6)
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** Whether an IP address is one a webhook must not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) return blocked.check(mapped[1]!, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true;
}

/** Resolves a host name to its addresses. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver. */
export const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Options of `checkWebhookUrl`. */
export interface UrlPolicy {
  allowPrivate: boolean;
  lookup?: HostLookup;
}

/** The URL, normalized, when a webhook may use it; a 400 naming the problem otherwise. */
export async function checkWebhookUrl(raw: unknown, policy: UrlPolicy): Promise<string> {
  if (typeof raw !== "string" || raw.length > 2048) throw badRequest(EVENTS.webhookUrlInvalid);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(EVENTS.webhookUrlInvalid);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "")
    throw badRequest(EVENTS.webhookUrlInvalid);
  if (policy.allowPrivate) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    if (host === "localhost" || host.endsWith(".localhost")) throw badRequest(EVENTS.webhookUrlPrivate);
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch {
      throw badRequest(EVENTS.webhookUrlUnresolvable);
    }
    if (addresses.length === 0) throw badRequest(EVENTS.webhookUrlUnresolvable);
  }
  if (addresses.some(isBlockedAddress)) throw badRequest(EVENTS.webhookUrlPrivate);
  return url.toString();
}
