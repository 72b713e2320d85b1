/**
 * Issue 23's load check: one key floods GET /v1/wallets past its read budget (429s) while another key reads
 * at its own pace; prints both keys' status counts and the quiet key's latency percentiles.
 * Run: npx tsx bench/rate-limit-load.ts  (sandbox app, SQLite file, in-process counters; ~20 s)
 */
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/http/app.js";
import { loadConfig } from "../src/config/config.js";
import { storeRateLimiter } from "../src/http/hooks/rate-limiters.js";
import { openStore } from "../src/store/index.js";
import { createVault, parseMasterKey } from "../src/vault/index.js";
import { ascending, percentile } from "../test/harness/stats.js";

const FLOOD_CONCURRENCY = Number(process.env.FLOOD_CONCURRENCY ?? 8);
const FLOOD_MS = 15_000;
const QUIET_INTERVAL_MS = 20;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function get(port: number, path: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path, method: "GET", agent, headers: { "x-api-key": apiKey } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lt-rl-bench-"));
  const config = loadConfig({ DATA_DIR: dir, RATE_LIMIT_READS: "600", LOG_LEVEL: "silent" });
  const store = await openStore(undefined, dir);
  const app = await buildApp({
    config,
    store,
    vault: createVault(parseMasterKey("22".repeat(32), "bench")),
    clock: () => new Date(),
    rateLimiter: storeRateLimiter(store),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;
  const setup = async (ip: string) =>
    (await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: ip })).json<{
      api_key: string;
    }>().api_key;
  const noisy = await setup("10.9.0.1");
  const quiet = await setup("10.9.0.2");

  const noisyCodes = new Map<number, number>();
  const quietCodes = new Map<number, number>();
  const quietMs: number[] = [];
  const end = Date.now() + FLOOD_MS;
  const flood = async () => {
    while (Date.now() < end) {
      const code = await get(port, "/v1/wallets", noisy);
      noisyCodes.set(code, (noisyCodes.get(code) ?? 0) + 1);
    }
  };
  const reader = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const code = await get(port, "/v1/wallets", quiet);
      quietMs.push(performance.now() - t0);
      quietCodes.set(code, (quietCodes.get(code) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, QUIET_INTERVAL_MS));
    }
  };
  await Promise.all([...Array.from({ length: FLOOD_CONCURRENCY }, flood), reader()]);
  const sorted = ascending(quietMs);
  console.log(
    JSON.stringify(
      {
        floodConcurrency: FLOOD_CONCURRENCY,
        seconds: FLOOD_MS / 1000,
        readBudgetPerMinute: config.hardening.budgets.reads,
        noisyKey: Object.fromEntries(noisyCodes),
        quietKey: Object.fromEntries(quietCodes),
        quietLatencyMs: {
          n: sorted.length,
          p50: percentile(sorted, 50).toFixed(2),
          p99: percentile(sorted, 99).toFixed(2),
          max: (sorted[sorted.length - 1] ?? 0).toFixed(2),
        },
      },
      null,
      2,
    ),
  );
  agent.destroy();
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
