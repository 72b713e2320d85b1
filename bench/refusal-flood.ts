/**
 * Issue 29's refusal-flood check: while a quiet key of another account reads at its own pace, (1) nothing
 * else runs, (2) a read-only sub-key floods POST /v1/trades/execute (403 scope, then 429), (3) a revoked key
 * floods GET /v1/wallets from one IP (401, then 429). Prints, per phase, the quiet key's latency percentiles,
 * the flood's status counts, when its first 429 came, and the activity rows the flood wrote.
 * Run: npm run bench:refusal-flood  (sandbox app without a chain, SQLite file, in-process counters; ~35 s)
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
const PHASE_MS = Number(process.env.PHASE_MS ?? 10_000);
const QUIET_INTERVAL_MS = 20;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Req {
  port: number;
  method: "GET" | "POST" | "DELETE";
  path: string;
  apiKey: string;
  body?: string;
  /** Sent as X-Forwarded-For (TRUST_PROXY): the client address the per-IP throttle sees. */
  ip?: string;
}

function send(r: Req): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: r.port,
        path: r.path,
        method: r.method,
        agent,
        headers: {
          "x-api-key": r.apiKey,
          ...(r.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(r.ip !== undefined ? { "x-forwarded-for": r.ip } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(r.body);
  });
}

interface FloodStats {
  codes: Record<number, number>;
  first429AfterRequests: number | null;
  first429AfterMs: number | null;
}

/** Runs the quiet reader for PHASE_MS beside `flood` (or alone); the quiet key's latencies and the flood's stats. */
async function phase(
  quiet: Req,
  flood: Req | undefined,
): Promise<{ quiet: Record<string, unknown>; flood: FloodStats | undefined }> {
  const start = Date.now();
  const end = start + PHASE_MS;
  const codes = new Map<number, number>();
  let sent = 0;
  let first429: { n: number; ms: number } | null = null;
  const flooder = async () => {
    while (flood !== undefined && Date.now() < end) {
      const code = await send(flood);
      sent += 1;
      if (code === 429 && first429 === null) first429 = { n: sent, ms: Date.now() - start };
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  };
  const quietMs: number[] = [];
  const quietCodes = new Map<number, number>();
  const reader = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const code = await send(quiet);
      quietMs.push(performance.now() - t0);
      quietCodes.set(code, (quietCodes.get(code) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, QUIET_INTERVAL_MS));
    }
  };
  await Promise.all([...Array.from({ length: flood ? FLOOD_CONCURRENCY : 0 }, flooder), reader()]);
  const sorted = ascending(quietMs);
  const f = first429 as { n: number; ms: number } | null;
  return {
    quiet: {
      codes: Object.fromEntries(quietCodes),
      n: sorted.length,
      p50: percentile(sorted, 50).toFixed(2),
      p99: percentile(sorted, 99).toFixed(2),
      max: (sorted[sorted.length - 1] ?? 0).toFixed(2),
    },
    flood:
      flood === undefined
        ? undefined
        : {
            codes: Object.fromEntries(codes),
            first429AfterRequests: f?.n ?? null,
            first429AfterMs: f?.ms ?? null,
          },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lt-refusal-bench-"));
  // The quiet key reads about 40 times a second for 30 s: a read budget it never reaches (the floods are refusals).
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: "silent",
    TRUST_PROXY: "true",
    RATE_LIMIT_READS: "100000",
  });
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
  const root = await setup("10.9.0.1");
  const quietKey = await setup("10.9.0.2");
  const subKey = async (name: string, scopes: string[]) =>
    (
      await app.inject({
        method: "POST",
        url: "/v1/keys",
        headers: { "x-api-key": root },
        payload: { name, scopes },
      })
    ).json<{ api_key: string; id: number }>();
  const reader = await subKey("flooder", ["read"]);
  const revoked = await subKey("revoked", ["read"]);
  await app.inject({ method: "DELETE", url: `/v1/keys/${revoked.id}`, headers: { "x-api-key": root } });
  const account = (await store.findKeyByHash(
    createVault(parseMasterKey("22".repeat(32), "bench")).hashApiKey(root),
  ))!.accountId;
  const rows = async () => (await store.listActivity({ accountId: account, limit: 1_000_000 })).length;

  const quiet: Req = { port, method: "GET", path: "/v1/wallets", apiKey: quietKey, ip: "10.9.0.2" };
  const mint = "So11111111111111111111111111111111111111112";
  const body = JSON.stringify({ action: "buy", mint, amount: "0.01" });
  const baseline = await phase(quiet, undefined);
  const rowsBefore = await rows();
  const refused = await phase(quiet, {
    port,
    method: "POST",
    path: "/v1/trades/execute",
    apiKey: reader.api_key,
    body,
    ip: "10.9.0.3",
  });
  const rowsAfterRefusals = await rows();
  const revokedFlood = await phase(quiet, {
    port,
    method: "GET",
    path: "/v1/wallets",
    apiKey: revoked.api_key,
    ip: "10.9.0.4",
  });
  const rowsAfterRevoked = await rows();
  console.log(
    JSON.stringify(
      {
        floodConcurrency: FLOOD_CONCURRENCY,
        phaseSeconds: PHASE_MS / 1000,
        refusalsBudgetPerMinute: config.hardening.budgets.refusals,
        authFailuresPerMinute: config.hardening.authFailuresPerMinute,
        baseline: baseline.quiet,
        readOnlyKeyOnTradeRoute: {
          ...refused,
          activityRowsWritten: rowsAfterRefusals - rowsBefore,
        },
        revokedKey: { ...revokedFlood, activityRowsWritten: rowsAfterRevoked - rowsAfterRefusals },
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
