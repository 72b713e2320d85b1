/**
 * The GET /v1/stream e2e harness: the app listening on a port, its market feed on the chain subscription
 * layer's logsSubscribe against an in-process localnet (useStreamE2e registers it on the file's hooks),
 * and a `ws` client that queues every message.
 */
import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import { Connection, PublicKey } from "@solana/web3.js";
import { parseProgramGeneration, startLocalnet, type LocalnetHandle } from "../../localnet/index.js";
import { createChain, type Chain } from "../../src/chain/chain.js";
import { localnetChainOptions } from "../../src/chain/localnet-options.js";
import { createChainSubscriptions, type ChainSubscriptions } from "../../src/chain/subscriptions/index.js";
import { LAMPORTS_PER_SOL } from "../../src/core/amounts.js";
import { MarketHub } from "../../src/domain/market/market-hub.js";
import { startMarketFeed } from "../../src/domain/market/start-feed.js";
import { associatedTokenAddress } from "../../src/launch/programs.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

export type Msg = Record<string, unknown> & { type: string };

/** A stream client that queues every message and waits for the next one matching a predicate. */
export class Client {
  readonly messages: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      const i = this.waiters.findIndex((w) => w.pred(m));
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
      else this.messages.push(m);
    });
    this.closed = new Promise((resolve) =>
      ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  next(pred: (m: Msg) => boolean = () => true): Promise<Msg> {
    const i = this.messages.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.messages.splice(i, 1)[0]!);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  send(value: unknown): void {
    this.ws.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  /** Sends a subscribe message and waits for its acknowledgement. */
  async subscribe(method: string, keys?: string[]): Promise<Msg> {
    this.send(keys === undefined ? { method } : { method, keys });
    return this.next((m) => m.type === "subscribed" || m.type === "error");
  }
}

// Live bindings filled in by useStreamE2e's beforeAll, so the tests read them as plain names. Files that share
// this module (the thread pool runs them one after another) each set them again in their own beforeAll.
export let localnet: LocalnetHandle;
export let chain: Chain;
export let subs: ChainSubscriptions;
export let t: TestApp;
export let url: string;
let stopFeed: () => void;
export const gaps: { programId: string; result: unknown }[] = [];

/** A stream client connected to the app, with the given upgrade headers. */
export async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const ws = new WebSocket(url, { headers });
  const c = new Client(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return c;
}

/** A new API key and its wallet, funded with `sol` SOL on the localnet. */
export async function keyAndWallet(sol = 5n): Promise<{ apiKey: string; wallet: string }> {
  const { apiKey, wallet } = await t.setup();
  localnet.admin.fund(wallet, sol * LAMPORTS_PER_SOL);
  return { apiKey, wallet };
}

/** POSTs `body` with the key and returns the 200 answer (throws on any other status). */
export async function post(apiKey: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await t.app.inject({
    method: "POST",
    url: path,
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown>>();
}

/** Registers beforeAll/afterAll: localnet, chain, a fast-backoff subscription layer, the market feed and the listening app. */
export function useStreamE2e(): void {
  beforeAll(async () => {
    // Test files may share this module (vitest's thread pool, isolate off): start each file's gap list empty.
    gaps.length = 0;
    localnet = await startLocalnet({
      port: 0,
      slotMs: 50,
      programs: parseProgramGeneration(process.env.LOCALNET_PROGRAMS),
    });
    chain = createChain(localnetChainOptions(localnet, { confirmTimeoutMs: 3_000, confirmPollMs: 50 }));
    await chain.start();
    // A layer of the test's own (fast backoff) so the drop test resubscribes quickly.
    subs = createChainSubscriptions({ url: localnet.wsUrl, backoff: { initialMs: 50, maxMs: 200 } });
    const hub = new MarketHub();
    const feed = startMarketFeed({
      subscriptions: subs,
      rpc: chain.rpc,
      hub,
      commitment: "processed",
      onGap: (programId, result) => gaps.push({ programId, result }),
    });
    stopFeed = feed.stop;
    await feed.ready;
    t = await buildTestApp({ chain, market: { hub, limits: { authTimeoutMs: 300, maxSubscriptions: 4 } } });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.server.address();
    if (addr === null || typeof addr === "string") throw new Error("no port");
    url = `ws://127.0.0.1:${addr.port}/v1/stream`;
  });

  afterAll(async () => {
    stopFeed?.();
    await subs?.close();
    await t?.close();
    chain?.stop();
    await localnet?.close();
  });
}

/** The owner's token balance of `mint` on the localnet. */
export async function tokenBalanceOf(owner: string, mint: string): Promise<bigint> {
  const conn = new Connection(localnet.rpcUrl, "processed");
  const mintKey = new PublicKey(mint);
  const info = await conn.getAccountInfo(mintKey);
  if (info === null) throw new Error("mint missing");
  const ata = associatedTokenAddress(new PublicKey(owner), mintKey, info.owner);
  return BigInt((await conn.getTokenAccountBalance(ata)).value.amount);
}

/** Resolves once `cond()` holds (polled every 20 ms). */
export async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}
