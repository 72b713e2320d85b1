/**
 * Issue 29, finding 2: a WebSocket flood against a real service process. One abusive connection per allowed slot
 * (the key's 8 with a key, the rest of the IP's 32 without one), each never reading and sending small frames,
 * reconnecting when closed, for 8 s: the service's RSS stays within 50 MB of its start, and nothing moves on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../harness/index.js";
import { streamFlood } from "../soak/stream-flood.js";

let cluster: Cluster;

/** Connections the server closed for flooding (4429) or not reading (4008), from its metrics. */
async function abusiveCloses(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^lasertrade_stream_closed_total\{reason="(slow_reader|limited)"\} (\d+)/gm))
    n += Number(m[2]);
  return n;
}

describe("issue 29: WebSocket flood", () => {
  beforeAll(async () => {
    cluster = await startCluster({ processes: 1, slotMs: 200 });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it("one abusive connection per allowed slot: RSS within 50 MB of the start; slots past the caps refused", async () => {
    const service = cluster.services[0]!;
    const { apiKey, wallet } = await cluster.setupKey({ sol: 1n });
    const before = await cluster.localnet.balance(wallet);
    const r = await streamFlood({
      url: `${service.baseUrl.replace("http", "ws")}/v1/stream`,
      pid: service.pid,
      // The defaults: 8 streams per key, 32 per IP. Two more of each ask past the caps.
      keyed: 10,
      anonymous: 26,
      apiKey,
      durationMs: 8_000,
    });
    console.log("stream flood:", JSON.stringify(r));
    expect(r.framesSent).toBeGreaterThan(10_000);
    expect(r.refused).toBeGreaterThan(0);
    // The flooding connections were closed (4429 past 100 messages a second, 4008 past the byte bound) instead
    // of growing the server; the clients, never reading, mostly do not see the close frame itself.
    expect(await abusiveCloses(service.baseUrl)).toBeGreaterThan(0);
    expect(r.peakRssMb - r.startRssMb).toBeLessThan(50);
    expect(await cluster.localnet.balance(wallet)).toBe(before);
  });
});
