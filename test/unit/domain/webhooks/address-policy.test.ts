/** Issue 29, finding 6: which addresses a webhook delivery may connect to, IPv6 transition ranges included. */
import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Bytes, isBlockedAddress } from "../../../../src/domain/webhooks/address-policy.js";

describe("webhook address policy", () => {
  it.each([
    ["0.0.0.0", "this network"],
    ["10.1.2.3", "private"],
    ["100.100.100.200", "shared (carrier NAT, metadata)"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local (metadata)"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.170", "IETF protocol assignments"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
  ])("blocks IPv4 %s (%s)", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::7f00:1", "IPv4-compatible ::/96"],
    ["::8.8.8.8", "IPv4-compatible ::/96, even of a public address"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:8.8.8.8", "IPv4-mapped ::ffff:0:0/96, even of a public address"],
    ["::ffff:0:a00:1", "IPv4-translated"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of the metadata address"],
    ["64:ff9b::808:808", "NAT64 64:ff9b::/96, even of a public address"],
    ["64:ff9b:1::1", "NAT64 local-use 64:ff9b:1::/48"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:808:808::1", "6to4 2002::/16, even of a public address"],
    ["fc00::1", "unique local"],
    ["fd00:ec2::254", "unique local (AWS metadata)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "a zone"],
    ["fec0::1", "site-local fec0::/10"],
    ["feff::1", "site-local fec0::/10, its end"],
    ["ff02::1", "multicast"],
  ])("blocks IPv6 %s (%s)", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it("Teredo (2001::/32): blocked when its server or its client address is", () => {
    // Client 127.0.0.1 is stored inverted: 0x80ff:0xfffe.
    expect(embeddedIpv4("2001:0:808:808:0:0:80ff:fffe")).toEqual(["8.8.8.8", "127.0.0.1"]);
    expect(isBlockedAddress("2001:0:808:808:0:0:80ff:fffe")).toBe(true);
    expect(isBlockedAddress("2001:0:a00:1:0:0:f7f7:f7f7")).toBe(true); // server 10.0.0.1
    expect(isBlockedAddress("2001:0:808:808:0:0:f7f7:f7f7")).toBe(false); // server 8.8.8.8, client 8.8.8.8
  });

  it("reads the IPv4 address every transition form carries", () => {
    expect(embeddedIpv4("::ffff:10.0.0.1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("::ffff:a00:1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("::ffff:0:a00:1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("::a00:1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("64:ff9b::10.0.0.1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("64:ff9b:1::a00:1")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("2002:a00:1::")).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4("2606:4700::1111")).toEqual([]);
    expect(embeddedIpv4("8.8.8.8")).toEqual([]);
    expect(Array.from(ipv6Bytes("1:2::ffff")!)).toEqual([0, 1, 0, 2, ...Array<number>(10).fill(0), 255, 255]);
  });

  it.each(["8.8.8.8", "93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])(
    "allows the public address %s",
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it.each(["", "localhost", "example.com", "1.2.3", "::g", "[::1]"])(
    "blocks %j, which is not an IP address",
    (a) => {
      expect(isBlockedAddress(a)).toBe(true);
    },
  );
});
