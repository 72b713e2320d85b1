/**
 * The WebSocket flood of issue 29 (finding 2): one abusive connection per allowed slot of GET /v1/stream, each
 * never reading and sending small frames as fast as its own socket takes them; a slot whose connection the
 * server closes reconnects until the time is up. Samples the service process's RSS (start, peak, end). Used by
 * test/security/streams-flood.test.ts and `npm run bench:stream-flood` (the figures in docs/reliability.md).
 */
import { Keypair } from "@solana/web3.js";
import WebSocket from "ws";
import { procUsage } from "../harness/proc-usage.js";

/** Options of `streamFlood`. */
export interface StreamFloodOptions {
  /** ws://host:port/v1/stream */
  url: string;
  /** The service process whose RSS is sampled. */
  pid: number;
  /** Slots that authenticate with `apiKey` at the upgrade (its per-key cap). */
  keyed: number;
  /** Slots that never authenticate (the rest of the IP's cap). */
  anonymous: number;
  apiKey: string;
  durationMs: number;
  /**
   * The frame a keyed connection repeats (default: subscribeTokenTrade of 200 mints, already held after the first,
   * whose ~9 KB `subscribed` reply fills the unread socket fastest).
   */
  keyedFrame?: string;
  /** The frame an anonymous connection repeats (default a ping, answered by an "authenticate first" error). */
  anonymousFrame?: string;
}

/** What the flood measured. */
export interface StreamFloodResult {
  startRssMb: number;
  peakRssMb: number;
  endRssMb: number;
  /** Frames the clients sent, in all. */
  framesSent: number;
  /** Connections opened (reconnects included) and refused at the upgrade. */
  connections: number;
  refused: number;
  /** Close codes the clients saw (1006 mostly: a client that never reads never reads the close frame either). */
  closeCodes: Record<string, number>;
}

/** `n` fresh addresses (mints nobody trades: subscribing to them costs the hub nothing after the first time). */
function mints(n: number): string[] {
  return Array.from({ length: n }, () => Keypair.generate().publicKey.toBase58());
}

const MB = 1024 * 1024;
const rssMb = (pid: number): number => Math.round(((procUsage(pid)?.rssBytes ?? 0) / MB) * 10) / 10;

/** Runs the flood and returns the RSS figures; every connection is closed when it resolves. */
export async function streamFlood(o: StreamFloodOptions): Promise<StreamFloodResult> {
  const keyedFrame = o.keyedFrame ?? JSON.stringify({ method: "subscribeTokenTrade", keys: mints(200) });
  const anonymousFrame = o.anonymousFrame ?? '{"method":"ping"}';
  const deadline = Date.now() + o.durationMs;
  const result: StreamFloodResult = {
    startRssMb: rssMb(o.pid),
    peakRssMb: 0,
    endRssMb: 0,
    framesSent: 0,
    connections: 0,
    refused: 0,
    closeCodes: {},
  };
  result.peakRssMb = result.startRssMb;
  const sampler = setInterval(() => {
    result.peakRssMb = Math.max(result.peakRssMb, rssMb(o.pid));
  }, 100);
  const open = new Set<WebSocket>();

  /** One connection: flood until the server closes it or time is up. */
  const once = (headers: Record<string, string>, frame: string): Promise<void> =>
    new Promise((resolve) => {
      const ws = new WebSocket(o.url, { headers });
      open.add(ws);
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        open.delete(ws);
        resolve();
      };
      ws.once("unexpected-response", () => {
        result.refused++;
        ws.terminate();
        // A refused slot waits a little before trying again (the server may not have seen a close yet).
        setTimeout(done, 50);
      });
      ws.once("error", () => done());
      ws.once("close", (code) => {
        result.closeCodes[code] = (result.closeCodes[code] ?? 0) + 1;
        done();
      });
      ws.once("open", () => {
        result.connections++;
        // Never read: the server's replies stay unread in its socket (and the kernel's buffers).
        ws.pause();
        const pump = (): void => {
          if (ws.readyState !== WebSocket.OPEN) return;
          if (Date.now() >= deadline) {
            ws.terminate();
            return;
          }
          // Keep the client's own queue small: the test measures the server, not itself.
          for (let i = 0; i < 200 && ws.bufferedAmount < 256 * 1024; i++) {
            ws.send(frame);
            result.framesSent++;
          }
          timer = setTimeout(pump, ws.bufferedAmount < 256 * 1024 ? 0 : 5);
        };
        pump();
      });
    });

  const slot = async (headers: Record<string, string>, frame: string): Promise<void> => {
    while (Date.now() < deadline) await once(headers, frame);
  };
  await Promise.all([
    ...Array.from({ length: o.keyed }, () => slot({ "x-api-key": o.apiKey }, keyedFrame)),
    ...Array.from({ length: o.anonymous }, () => slot({}, anonymousFrame)),
  ]);
  for (const ws of open) ws.terminate();
  clearInterval(sampler);
  result.peakRssMb = Math.max(result.peakRssMb, rssMb(o.pid));
  // The end figure after the server let go of the closed connections.
  await new Promise((r) => setTimeout(r, 1_000));
  result.endRssMb = rssMb(o.pid);
  return result;
}
