/**
 * `npx tsx bench/stream.ts [--clients 1000] [--seconds 10] [--latency-trades 200]`: the market stream's
 * figures, everything in one process (localnet, service, stream clients):
 * 1. latency from a trade request (API, confirm and simulate off; the localnet executes the transaction
 *    at send) to its `trade` event at a stream client: p50 / p99;
 * 2. N clients × 10 subscriptions (10 mints each, every trade goes to every client): events/s delivered,
 *    process CPU and peak RSS;
 * 2b. the fan-out's own ceiling: the same clients, synthetic trade messages published straight into the hub
 *    (no trades, no decoding) in batches of 5, each batch once the previous one reached every client;
 * 3. one client that never reads among them: closed with 4008 once 1 MiB is queued, the others unaffected.
 * Prints a markdown table. Not part of `npm test`.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import WebSocket from "ws";
import { startLocalnet } from "../localnet/index.js";
import { createChain } from "../src/chain/chain.js";
import { localnetChainOptions } from "../src/chain/localnet-options.js";
import { LAMPORTS_PER_SOL } from "../src/core/amounts.js";
import { MarketHub } from "../src/domain/market/market-hub.js";
import { startMarketFeed } from "../src/domain/market/start-feed.js";
import { buildTestApp } from "../test/helpers/app.js";
import { percentile } from "../test/harness/stats.js";
import { numberFlag } from "./flags.js";

const arg = (name: string, fallback: number): number => numberFlag(process.argv, name, fallback);
const CLIENTS = arg("clients", 1000);
const SECONDS = arg("seconds", 10);
const LATENCY_TRADES = arg("latency-trades", 200);
const MINTS = 10;
const LANES = 8;

const localnet = await startLocalnet({ port: 0, slotMs: 400 });
const chain = createChain(localnetChainOptions(localnet, { confirmTimeoutMs: 5_000 }));
await chain.start();
const hub = new MarketHub();
const feed = startMarketFeed({ subscriptions: chain.subscriptions, rpc: chain.rpc, hub });
await feed.ready;
// Counts server-side closes (the never-reading client cannot read its close frame).
const hubObserver: { closed?: (reason: string) => void } = {};
const t = await buildTestApp({
  chain,
  // The fan-out is measured with N clients of one key from one address: the per-key and per-IP stream caps
  // (8 and 32 by default) would refuse all but the first few.
  env: { STREAM_MAX_CONNECTIONS_PER_KEY: "0", STREAM_MAX_CONNECTIONS_PER_IP: "0" },
  market: {
    hub,
    metrics: {
      delivered: () => undefined,
      closed: (reason) => hubObserver.closed?.(reason),
      subscriptionsChanged: () => undefined,
      decoded: () => undefined,
      unresolvedPool: () => undefined,
      connectionOpened: () => undefined,
      connectionClosed: () => undefined,
    },
  },
});
await t.app.listen({ port: 0, host: "127.0.0.1" });
const addr = t.app.server.address();
if (addr === null || typeof addr === "string") throw new Error("no port");
const url = `ws://127.0.0.1:${addr.port}/v1/stream`;
const addrPort = addr.port;

const wallets: { apiKey: string; wallet: string }[] = [];
for (let i = 0; i < LANES; i++) {
  const { apiKey, wallet } = await t.setup();
  localnet.admin.fund(wallet, 1_000n * LAMPORTS_PER_SOL);
  wallets.push({ apiKey, wallet });
}
const mints = Array.from({ length: MINTS }, () => localnet.admin.createToken().mint);

async function buy(lane: number, mint: string): Promise<string> {
  const { apiKey } = wallets[lane]!;
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/trades/execute",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    payload: JSON.stringify({ action: "buy", mint, amount: "0.001", confirm: false, simulate: false }),
  });
  if (res.statusCode !== 200) throw new Error(`trade: ${res.statusCode} ${res.body}`);
  return res.json<{ signature: string }>().signature;
}

function open(apiKey: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { "x-api-key": apiKey } });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** A raw TCP WebSocket client: upgrades, subscribes to `mint`, then never reads another byte. */
async function rawNeverReading(apiKey: string, mint: string): Promise<Socket> {
  const socket = connect(addrPort, "127.0.0.1");
  await new Promise<void>((r) => socket.once("connect", () => r()));
  socket.write(
    `GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n` +
      `x-api-key: ${apiKey}\r\n\r\n`,
  );
  await new Promise<void>((r) => {
    let head = "";
    const onData = (d: Buffer) => {
      head += d.toString("latin1");
      if (head.includes("\r\n\r\n")) {
        socket.off("data", onData);
        r();
      }
    };
    socket.on("data", onData);
  });
  const payload = Buffer.from(JSON.stringify({ method: "subscribeTokenTrade", keys: [mint] }));
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
  socket.pause();
  return socket;
}

function subscribe(ws: WebSocket, keys: string[]): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (d: WebSocket.RawData) => {
      if ((JSON.parse(d.toString()) as { type: string }).type === "subscribed") {
        ws.off("message", onMessage);
        resolve();
      }
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ method: "subscribeTokenTrade", keys }));
  });
}

// 1. Latency: one client, sequential trades.
const probe = await open(wallets[0]!.apiKey);
await subscribe(probe, mints);
const seenAt = new Map<string, number>();
const waiting = new Map<string, (at: number) => void>();
probe.on("message", (d) => {
  const at = performance.now();
  const m = JSON.parse(d.toString()) as { type: string; signature?: string };
  if (m.type !== "trade" || m.signature === undefined) return;
  const w = waiting.get(m.signature);
  if (w !== undefined) w(at);
  else seenAt.set(m.signature, at);
});
const latencies: number[] = [];
for (let i = 0; i < LATENCY_TRADES; i++) {
  const start = performance.now();
  const sig = await buy(0, mints[i % MINTS]!);
  // The event may arrive before the API response: it is then already in seenAt.
  const at =
    seenAt.get(sig) ??
    (await new Promise<number>((r) => {
      waiting.set(sig, r);
      setTimeout(() => r(NaN), 5_000);
    }));
  latencies.push(at - start);
  waiting.delete(sig);
  seenAt.delete(sig);
}
probe.close();
const late = latencies.filter((l) => Number.isNaN(l)).length;
const measured = latencies.filter((l) => !Number.isNaN(l)).sort((a, b) => a - b);

// 2 + 3. Fan-out: CLIENTS clients × 10 mints, plus one that never reads.
const clients: WebSocket[] = [];
let delivered = 0;
for (let i = 0; i < CLIENTS; i++) {
  const ws = await open(wallets[i % LANES]!.apiKey);
  await subscribe(ws, mints);
  ws.on("message", () => (delivered += 1));
  clients.push(ws);
}
const rss: number[] = [];
const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 250);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let trades = 0;
const deadline = t0 + SECONDS * 1000;
await Promise.all(
  Array.from({ length: LANES }, async (_, lane) => {
    while (performance.now() < deadline) {
      await buy(lane, mints[(trades + lane) % MINTS]!);
      trades += 1;
    }
  }),
);
// Let the last events drain.
const expected = trades * CLIENTS;
const drainUntil = performance.now() + 10_000;
while (delivered < expected && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const tradeDelivered = delivered;
clearInterval(sampler);

// 2b. The fan-out's ceiling: synthetic messages of one mint every client holds, paced by delivery.
const template = {
  type: "trade",
  slot: 0,
  mint: mints[0]!,
  timestamp: 0,
  venue: "bonding_curve",
  pool: null,
  trader: wallets[0]!.wallet,
  side: "buy",
  sol_amount: "1000000",
  token_amount: "35000000000",
  quote_mint: "So11111111111111111111111111111111111111112",
  quote_amount: "1000000",
  post_complete_token_amount: "0",
  post_complete_quote_amount: "0",
  virtual_sol_reserves: "30000000000",
  virtual_token_reserves: "1073000000000000",
  real_sol_reserves: "0",
  real_token_reserves: "793100000000000",
  market_cap_sol: "27.958993476",
  is_mayhem: false,
  is_cashback: false,
  curve_complete: false,
} as const;
const BATCH = 5;
let synthetic = 0;
const ceilingStart = delivered;
const rssCeiling: number[] = [];
const ceilingSampler = setInterval(() => rssCeiling.push(process.memoryUsage().rss), 250);
const cpuC0 = process.cpuUsage();
const tc0 = performance.now();
const ceilingDeadline = tc0 + SECONDS * 1000;
while (performance.now() < ceilingDeadline) {
  for (let i = 0; i < BATCH; i++) hub.publish({ ...template, signature: `ceiling${synthetic++}` });
  const target = ceilingStart + synthetic * CLIENTS;
  const giveUp = performance.now() + 10_000;
  while (delivered < target && performance.now() < giveUp) await new Promise((r) => setImmediate(r));
}
const ceilingElapsed = (performance.now() - tc0) / 1000;
const cpuC = process.cpuUsage(cpuC0);
clearInterval(ceilingSampler);
const ceilingDelivered = delivered - ceilingStart;
for (const c of clients) c.terminate();

// 3. A client that never reads, beside one that does: synthetic trade messages published straight into the
// hub until the slow one is closed (loopback kernel buffers absorb a few MB before the server queue grows).
const slow = await rawNeverReading(wallets[0]!.apiKey, mints[0]!);
const fast = await open(wallets[1]!.apiKey);
await subscribe(fast, [mints[0]!]);
let fastGot = 0;
fast.on("message", () => (fastGot += 1));
let slowCode = 0;
// The server's close frame cannot be read (the client does not read): its end of the TCP connection shows it.
slow.on("close", () => (slowCode = slowCode || -1));
hubObserver.closed = (reason) => {
  if (reason === "slow_reader") slowCode = 4008;
};
const rssBeforeSlow = process.memoryUsage().rss;
let published = 0;
while (slowCode === 0 && published < 200_000) {
  for (let i = 0; i < 500; i++) hub.publish({ ...template, signature: `synthetic${published++}` });
  await new Promise((r) => setImmediate(r));
}
const fastUntil = performance.now() + 10_000;
while (fastGot < published && performance.now() < fastUntil) await new Promise((r) => setTimeout(r, 20));
const rssAfterSlow = process.memoryUsage().rss;

const ms = (v: number | undefined) => (v === undefined ? "-" : v.toFixed(1));
const rows = [
  ["trade request → event at a client, p50 (ms)", ms(percentile(measured, 50))],
  ["trade request → event at a client, p99 (ms)", ms(percentile(measured, 99))],
  ["latency samples (no event within 5 s)", `${measured.length} (${late})`],
  [`clients × subscriptions`, `${CLIENTS} × ${MINTS}`],
  ["trades sent (8 lanes, API, confirm off)", String(trades)],
  ["events delivered to clients / expected", `${tradeDelivered} / ${expected}`],
  ["events/s delivered", (tradeDelivered / elapsed).toFixed(0)],
  [
    "process CPU (user+system) / wall",
    `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s / ${elapsed.toFixed(1)} s`,
  ],
  ["peak RSS (MB)", (Math.max(...rss) / 1024 / 1024).toFixed(1)],
  [
    "fan-out ceiling (synthetic, batches of 5): events delivered / expected",
    `${ceilingDelivered} / ${synthetic * CLIENTS}`,
  ],
  ["fan-out ceiling: events/s delivered", (ceilingDelivered / ceilingElapsed).toFixed(0)],
  [
    "fan-out ceiling: process CPU (user+system) / wall",
    `${((cpuC.user + cpuC.system) / 1e6).toFixed(1)} s / ${ceilingElapsed.toFixed(1)} s`,
  ],
  ["fan-out ceiling: peak RSS (MB)", (Math.max(...rssCeiling) / 1024 / 1024).toFixed(1)],
  ["client that never reads: close code / messages published until then", `${slowCode} / ${published}`],
  ["the reading client beside it received", `${fastGot} / ${published}`],
  [
    "RSS before / after the slow-client phase (MB)",
    `${(rssBeforeSlow / 1048576).toFixed(1)} / ${(rssAfterSlow / 1048576).toFixed(1)}`,
  ],
];
process.stdout.write(
  `| stream (one process: localnet + service + clients) | value |\n|---|---|\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join("\n")}\n`,
);

slow.destroy();
fast.terminate();
feed.stop();
await t.close();
chain.stop();
await localnet.close();
process.exit(0);
