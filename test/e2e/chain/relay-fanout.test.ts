/**
 * Mainnet readiness on the localnet: one trade fans out to two relays (/relay and /relay2, each with its own
 * fault switches); the first acceptance answers, the other relay's failure is logged and counted per relay in
 * /metrics; the automatic priority fee follows the traded curve's recent fees, capped, and is recorded.
 */
import { Keypair, PublicKey, SystemProgram, Transaction, ComputeBudgetProgram } from "@solana/web3.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { createChain, type Chain } from "../../../src/chain/chain.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { relayMetricsObserver } from "../../../src/observability/relay-observer.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";

const SOL = 1_000_000_000n;
const CAP = 50_000n;

let net: LocalnetHandle;
let chain: Chain;
let app: TestApp;
let metrics: Metrics;
const warnings: Record<string, unknown>[] = [];

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 50 });
  metrics = createMetrics({ processMetrics: false });
  chain = createChain(
    localnetChainOptions(net, {
      relays: [
        { name: "localnet", url: net.relayUrl },
        { name: "localnet2", url: net.relay2Url },
      ],
      relayObserver: relayMetricsObserver(metrics, {
        warn: (o) => warnings.push(o as Record<string, unknown>),
      }),
      relayTimeoutMs: 1_000,
      computeUnitPrice: { mode: "auto", percentile: 75, maxMicroLamports: CAP },
      confirmTimeoutMs: 3_000,
      confirmPollMs: 50,
      rebroadcastMs: 300,
      cacheRefreshMs: 100,
    }),
  );
  await chain.start();
  app = await buildTestApp({ chain, metrics });
});

afterAll(async () => {
  chain.stop();
  await app.close();
  await net.close();
});

beforeEach(() => {
  net.admin.clearFaults();
  net.admin.resetStats();
  warnings.length = 0;
});

async function funded(): Promise<{ apiKey: string; wallet: string }> {
  const { apiKey, wallet } = await app.setup();
  net.admin.fund(wallet, 10n * SOL);
  return { apiKey, wallet };
}

async function buy(apiKey: string, mint: string) {
  return app.app.inject({
    method: "POST",
    url: "/v1/trades/execute",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    payload: JSON.stringify({ action: "buy", mint, amount: "0.01", denominated_in_sol: true, confirm: true }),
  });
}

async function executions(apiKey: string) {
  const res = await app.app.inject({
    method: "GET",
    url: "/v1/executions",
    headers: { "x-api-key": apiKey },
  });
  return res.json<{ executions: { status: string; compute_unit_price_micro_lamports: string | null }[] }>()
    .executions;
}

function metricLines(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(name));
}

describe("fan-out to two relays", () => {
  it("sends the same transaction to both; both acceptances are timed per relay", async () => {
    const { apiKey } = await funded();
    const { mint } = net.admin.createToken();
    const res = await buy(apiKey, mint);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ confirmed: boolean }>().confirmed).toBe(true);
    const stats = net.admin.stats();
    expect(stats["relay.sendTransaction"]).toBeGreaterThanOrEqual(1);
    expect(stats["relay2.sendTransaction"]).toBeGreaterThanOrEqual(1);
    const text = await metrics.registry.metrics();
    expect(metricLines(text, 'lasertrade_relay_accept_seconds_count{relay="localnet"}')).toHaveLength(1);
    expect(metricLines(text, 'lasertrade_relay_accept_seconds_count{relay="localnet2"}')).toHaveLength(1);
  });

  it("a faulty second relay does not fail the trade: its errors are logged and counted", async () => {
    const { apiKey } = await funded();
    const { mint } = net.admin.createToken();
    net.admin.setRelay2Faults({ errorRate: 1, errorKind: "http500" });
    const res = await buy(apiKey, mint);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ confirmed: boolean }>().confirmed).toBe(true);
    const text = await metrics.registry.metrics();
    const errors = metricLines(text, 'lasertrade_relay_errors_total{relay="localnet2",reason="http_5xx"}');
    expect(errors).toHaveLength(1);
    expect(warnings.some((w) => w.relay === "localnet2" && w.reason === "http_5xx")).toBe(true);
    // The log names the relay, never its URL.
    expect(JSON.stringify(warnings)).not.toContain(net.relay2Url);
  });

  it("a dead first relay and a slow second one: the slow acceptance answers", async () => {
    const { apiKey } = await funded();
    const { mint } = net.admin.createToken();
    net.admin.setFaults({ endpoints: ["relay"], errorRate: 1, errorKind: "http429" });
    net.admin.setRelay2Faults({ latencyMs: 300 });
    const res = await buy(apiKey, mint);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ confirmed: boolean }>().confirmed).toBe(true);
    const text = await metrics.registry.metrics();
    expect(
      metricLines(text, 'lasertrade_relay_errors_total{relay="localnet",reason="http_429"}'),
    ).toHaveLength(1);
  });

  it("when both relays refuse, the trade is a 502 with the relay's detail and the record is failed", async () => {
    const { apiKey } = await funded();
    const { mint } = net.admin.createToken();
    net.admin.setFaults({ endpoints: ["relay"], errorRate: 1, errorKind: "http500" });
    net.admin.setRelay2Faults({ errorRate: 1, errorKind: "http500" });
    const res = await buy(apiKey, mint);
    expect(res.statusCode).toBe(502);
    expect(res.json<{ detail: string }>().detail).toContain("HTTP 500");
    expect((await executions(apiKey))[0]?.status).toBe("failed");
  });
});

describe("automatic priority fee", () => {
  it("prices a trade from its own curve's recent fees, capped, and records the price on the execution", async () => {
    const { apiKey } = await funded();
    const busy = net.admin.createToken().mint;
    const quiet = net.admin.createToken().mint;
    // A calm cluster: cheap transactions in several slots.
    for (let i = 0; i < 5; i++) {
      await writeAt(1_000n, Keypair.generate().publicKey);
      await sleep(60);
    }
    // The first trade on a curve pays the cluster-wide estimate (nothing waits) and puts the curve on the refresh.
    expect((await buy(apiKey, busy)).statusCode).toBe(200);
    const first = await lastPrice(apiKey);
    expect(first).toBeLessThan(CAP);

    // Someone writes the busy curve at a very high price; after a background refresh a trade on it follows,
    // up to the cap, while a trade on the quiet curve still pays the cluster-wide figure.
    await writeAt(9_000_000n, bondingCurveOf(busy));
    await sleep(400);
    expect((await buy(apiKey, busy)).statusCode).toBe(200);
    expect(await lastPrice(apiKey)).toBe(CAP);
    expect((await buy(apiKey, quiet)).statusCode).toBe(200);
    expect(await lastPrice(apiKey)).toBe(first);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function lastPrice(apiKey: string): Promise<bigint> {
  return BigInt((await executions(apiKey))[0]!.compute_unit_price_micro_lamports!);
}

function bondingCurveOf(mint: string): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from("bonding-curve"), new PublicKey(mint).toBuffer()],
    new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P"),
  )[0];
}

/** Lands a transaction at `microLamports` per CU that locks `account` writable (a 0-lamport transfer to it). */
async function writeAt(microLamports: bigint, account: PublicKey): Promise<void> {
  const payer = Keypair.generate();
  net.admin.fund(payer.publicKey.toBase58(), SOL);
  const { blockhash } = (await chain.rpc.getLatestBlockhash("confirmed")).value;
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: account, lamports: 0 }),
  );
  tx.sign(payer);
  await chain.rpc.sendTransaction(tx.serialize());
}
