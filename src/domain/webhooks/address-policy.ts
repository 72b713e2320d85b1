/**
 * Which IP addresses a webhook delivery may connect to (issue 29, finding 6). Blocked: loopback, private,
 * link-local, shared (carrier NAT), metadata, multicast and reserved IPv4; and in IPv6 the same kinds plus every
 * transition range that carries an IPv4 address or reaches a local network through a translator (IPv4-mapped,
 * -compatible and -translated, NAT64 well-known and local-use, 6to4, site-local, discard-only). Teredo
 * (2001::/32) carries its server's and its client's IPv4 addresses: either one blocked blocks the address.
 * Anything that is not an IP address, or carries a zone (`%eth0`), is blocked.
 */
import { BlockList, isIP } from "node:net";

const blocked4 = new BlockList();
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
  blocked4.addSubnet(net, prefix, "ipv4");

const blocked6 = new BlockList();
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback (::1) and IPv4-compatible (deprecated)
  ["::ffff:0:0", 96], // IPv4-mapped
  ["::ffff:0:0:0", 96], // IPv4-translated (RFC 2765)
  ["64:ff9b::", 96], // NAT64 well-known prefix: a translator reaches any IPv4 address, private ones included
  ["64:ff9b:1::", 48], // NAT64 local-use prefix (RFC 8215)
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: a relay reaches the embedded IPv4 address
  ["fc00::", 7], // unique local (fd00:ec2::254 is AWS metadata over IPv6)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed inside some networks)
  ["ff00::", 8], // multicast
] as const)
  blocked6.addSubnet(net, prefix, "ipv6");

/** The 16 bytes of an IPv6 address (with or without an embedded dotted quad), or undefined when it is not one. */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  if (isIP(address) !== 6 || address.includes("%")) return undefined;
  let text = address.toLowerCase();
  const tail: number[] = [];
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    tail.push(...quad.slice(1, 5).map(Number));
    text = `${text.slice(0, quad.index)}0:0`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const groups = (s: string): string[] => (s === "" ? [] : s.split(":"));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    const v = parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

const dotted = (b: Uint8Array, at: number): string => Array.from(b.subarray(at, at + 4)).join(".");

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((v, i) => b[i] === v);
}

/**
 * The IPv4 addresses an IPv6 address carries, by its transition range: IPv4-mapped, -compatible, -translated
 * and NAT64 (the last 32 bits), 6to4 (bits 16-47), Teredo (the server, bits 32-63, and the client, the last 32
 * bits inverted). Empty for any other address.
 */
export function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  if (b === undefined) return [];
  const zeros = (from: number, to: number): boolean => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return [dotted(b, 12)]; // ::ffff:a.b.c.d
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return [dotted(b, 12)]; // ::ffff:0:a.b.c.d
  if (zeros(0, 12)) return [dotted(b, 12)]; // ::a.b.c.d
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b]) && (zeros(4, 12) || (b[5] === 1 && zeros(6, 12))))
    return [dotted(b, 12)]; // 64:ff9b::a.b.c.d, 64:ff9b:1::a.b.c.d
  if (startsWith(b, [0x20, 0x02])) return [dotted(b, 2)]; // 2002:aabb:ccdd::
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00])) {
    const client = b.subarray(12, 16).map((x) => x ^ 0xff);
    return [dotted(b, 4), Array.from(client).join(".")];
  }
  return [];
}

/** Whether a delivery must not connect to this IP address (anything that is not one is blocked too). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked4.check(address, "ipv4");
  if (family !== 6 || address.includes("%")) return true;
  if (blocked6.check(address, "ipv6")) return true;
  return embeddedIpv4(address).some((v4) => blocked4.check(v4, "ipv4"));
}
