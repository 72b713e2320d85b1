/**
 * Issue 29 figures: the WebSocket flood (test/soak/stream-flood.ts) against one real service process (SQLite,
 * default caps: 8 streams per key, 32 per IP) for `--seconds` (default 25, as in the probe). Prints the
 * service's RSS at the start, its peak and at the end, with what the clients did. `npm run bench:stream-flood`.
 */
import { startCluster } from "../test/harness/index.js";
import { streamFlood } from "../test/soak/stream-flood.js";
import { numberFlag } from "./flags.js";

const flag = (name: string, dflt: number): number => numberFlag(process.argv, name, dflt);
const seconds = flag("seconds", 25);
// Slots with the key (10: its cap of 8 plus two refused) and without (26: the rest of the IP's 32 plus two).
const keyed = flag("keyed", 10);
const anonymous = flag("anonymous", 26);
// --pings: the keyed slots send pings instead of 200-mint subscribes.
const pings = process.argv.includes("--pings");

const cluster = await startCluster({ processes: 1, slotMs: 200 });
try {
  const service = cluster.services[0]!;
  const { apiKey } = await cluster.setupKey({ sol: 1n });
  const r = await streamFlood({
    url: `${service.baseUrl.replace("http", "ws")}/v1/stream`,
    pid: service.pid,
    keyed,
    anonymous,
    ...(pings ? { keyedFrame: '{"method":"ping"}' } : {}),
    apiKey,
    durationMs: seconds * 1000,
  });
  const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const closed = [...metrics.matchAll(/^lasertrade_stream_closed_total\{reason="(\w+)"\} (\d+)/gm)].map(
    (m) => `${m[1]}=${m[2]}`,
  );
  console.log(
    JSON.stringify({
      seconds,
      keyed,
      anonymous,
      pings,
      ...r,
      serverClosed: closed.join(" "),
      growthMb: r.peakRssMb - r.startRssMb,
    }),
  );
} finally {
  await cluster.close();
}
