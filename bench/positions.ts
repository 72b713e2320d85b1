/**
 * `npx tsx bench/positions.ts [--positions 1000] [--requests 300] [--pg]`: latency of GET /v1/positions for one
 * wallet holding `--positions` positions (issue 33's goal: ≤ 20 ms p99), over real HTTP as a client would ask
 * (the app listening on loopback, one keep-alive connection, the whole answer read), on SQLite in memory or
 * (with `--pg`) the PostgreSQL of TEST_DATABASE_URL in a schema of its own. The positions are seeded through
 * the real write path (a trade execution, then its outcome with a fill); the mints are not in the warm state,
 * so the page is the ledger read and its serialization, valuation skipped. `app.inject` is not used: it copies
 * the whole answer through a simulated socket, which a client never pays (about 60 % of a page of 500).
 */
import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Keypair } from "@solana/web3.js";
import { buildApp } from "../src/http/app.js";
import { loadConfig } from "../src/config/config.js";
import { storeRateLimiter } from "../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../src/store/index.js";
import { createVault, parseMasterKey } from "../src/vault/index.js";
import { dropSchema, freshSchemaName } from "../test/helpers/pg.js";
import { numberFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

/** Seeds `n` open positions of `wallet` through the execution write path. */
async function seed(store: Store, apiKeyId: number, wallet: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const mint = Keypair.generate().publicKey.toBase58();
    const id = `bench-${i}-${Math.random()}`;
    await store.insertExecution({
      id,
      apiKeyId,
      kind: "trade",
      wallet,
      wallets: [wallet],
      signatures: [id],
      bundleId: null,
      status: "pending",
      confirmationStatus: null,
      request: { action: "buy", mint },
      response: null,
      error: null,
      timings: null,
    });
    const fill = {
      sol_change_lamports: "-100005000",
      fee_lamports: "5000",
      tip_lamports: "0",
      rent_lamports: "2039280",
      trade_sol_lamports: "97960720",
      token_change: "3500000000000",
      token_balance_after: "3500000000000",
      token_decimals: 6,
    };
    await store.updateExecution(id, { status: "confirmed", response: { mint, fill } });
  }
}

/** One GET over the keep-alive agent; resolves once the whole body is read. */
function get(
  agent: Agent,
  port: number,
  path: string,
  apiKey: string,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: "127.0.0.1", port, path, headers: { "x-api-key": apiKey } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const positions = numberFlag(argv, "positions", 1000);
  const requests = numberFlag(argv, "requests", 300);
  const pgUrl = argv.includes("--pg") ? process.env.TEST_DATABASE_URL : undefined;
  if (argv.includes("--pg") && pgUrl === undefined) throw new Error("--pg needs TEST_DATABASE_URL");
  const schema = freshSchemaName("benchpos");
  // The read budget (600 a minute) would stop the measurement itself.
  const config = loadConfig({ RATE_LIMIT_READS: "1000000", RATE_LIMIT_ACCOUNT_READS: "1000000" });
  const store = await openStore(
    pgUrl ?? "sqlite::memory:",
    config.dataDir,
    pgUrl ? { pgSchema: schema } : {},
  );
  const app = await buildApp({
    config,
    store,
    vault: createVault(parseMasterKey("22".repeat(32), "bench")),
    clock: () => new Date(),
    rateLimiter: storeRateLimiter(store),
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup" });
    const { api_key: apiKey, wallet_public_key: wallet } = res.json<{
      api_key: string;
      wallet_public_key: string;
    }>();
    // The only wallet of a fresh store is the one setup just made.
    const apiKeyId = (await store.anyWallet())!.apiKeyId;
    const t0 = performance.now();
    await seed(store, apiKeyId, wallet, positions);
    process.stdout.write(
      `seeded ${positions} positions in ${Math.round(performance.now() - t0)} ms (${pgUrl ? "postgres" : "sqlite"})\n`,
    );
    for (const limit of [100, 500]) {
      const url = `/v1/positions?wallet=${wallet}&limit=${limit}`;
      for (let i = 0; i < 20; i++) await get(agent, port, url, apiKey);
      const ms: number[] = [];
      let bytes = 0;
      // CPU time of this process (server and client) per request: less sensitive to a loaded machine.
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < requests; i++) {
        const s = performance.now();
        const r = await get(agent, port, url, apiKey);
        ms.push(performance.now() - s);
        if (r.status !== 200) throw new Error(`status ${r.status}`);
        bytes = r.bytes;
      }
      const cpu = process.cpuUsage(cpu0);
      ms.sort((a, b) => a - b);
      process.stdout.write(
        `GET /v1/positions limit=${limit} over HTTP (${bytes} B): p50 ${quantile(ms, 0.5).toFixed(2)} ms, p99 ${quantile(ms, 0.99).toFixed(2)} ms, max ${ms[ms.length - 1]!.toFixed(2)} ms, cpu ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms/request (${requests} requests)\n`,
      );
    }
  } finally {
    agent.destroy();
    await app.close();
    await store.close();
    if (pgUrl !== undefined) await dropSchema(pgUrl, schema);
  }
}

runScript(main);
