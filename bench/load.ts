/**
 * The load side of the benchmark: trades sent to a service process over HTTP (keep-alive, so the client's own
 * cost stays small), measured from outside: latency per request, trades per second, the localnet's call
 * counters, and the service process's CPU time and memory from /proc.
 */
import { createHttpFetch } from "./undici-fetch.js";
import { percentile, type LocalnetClient } from "../test/harness/index.js";

import { cpuMsOf, peakRssMbOf } from "./process-stats.js";

/** A service under load. */
export interface Target {
  baseUrl: string;
  pid: number;
  /** The localnet's process, when it runs on this machine (0: not known). */
  localnetPid: number;
  localnet: Pick<LocalnetClient, "stats" | "resetStats">;
  /** Calls per second the service makes on its own (cache refreshes), per "<endpoint>.<method>". */
  backgroundPerSecond: Record<string, number>;
}

/** One measured scenario. */
export interface ScenarioResult {
  name: string;
  trades: number;
  concurrency: number;
  p50: number;
  p95: number;
  p99: number;
  tradesPerSecond: number;
  /** Request-path upstream calls per trade (background refreshes subtracted). */
  callsPerTrade: Record<string, number>;
  serviceCpuMsPerTrade: number;
  /** Service CPU time over wall time (1 = one core busy). */
  serviceCpuShare: number;
  /** The same for the localnet process (NaN when it runs elsewhere). */
  localnetCpuShare: number;
  peakRssMb: number;
  /** Mean of each timing_ms stage the service reported. */
  stages: Record<string, number>;
  errors: number;
  /** Share of the answered trades quoted on warm state (`state_source: "cache"`), 0..1. */
  cacheShare: number;
}

/** A JSON API client over one keep-alive agent. */
export function apiClient(baseUrl: string, apiKey: string, maxSockets = 256) {
  const fetch = createHttpFetch({ maxSockets });
  const headers = { "content-type": "application/json", "x-api-key": apiKey };
  return async <T>(path: string, body: unknown): Promise<{ status: number; body: T }> => {
    // A timer cleared with the answer: AbortSignal.timeout would keep a 60 s timer per request alive in this
    // process, which shares the machine's cores with the service it measures.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 60_000);
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      return { status: res.status, body: JSON.parse(await res.text()) as T };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Measures how many calls per second the idle service makes by itself. */
export async function measureBackground(
  localnet: Pick<LocalnetClient, "stats" | "resetStats">,
  ms: number,
): Promise<Record<string, number>> {
  await localnet.resetStats();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const stats = await localnet.stats();
  const seconds = (performance.now() - t0) / 1000;
  return Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v / seconds]));
}

/**
 * Runs `lanes.length` concurrent loops (one wallet each, so no two in-flight trades share a fee payer) until
 * `trades` requests were made or `durationMs` passed, after `warmup` unmeasured trades per lane.
 */
export async function runScenario(
  target: Target,
  apiKey: string,
  spec: {
    name: string;
    body: Record<string, unknown>;
    lanes: string[];
    trades: number;
    warmup: number;
    durationMs?: number;
    /**
     * Trades started per second across all lanes (a lane waits for its slot; behind schedule it goes at
     * once). Unset: every lane sends as soon as its last answer came (closed loop). A fixed rate makes the
     * CPU per trade of two builds comparable on a machine others load: at the closed loop's varying rate the
     * group commit's batching and GC's pace vary with the CPU share the scheduler grants.
     */
    ratePerSecond?: number;
  },
): Promise<ScenarioResult> {
  const post = apiClient(target.baseUrl, apiKey, spec.lanes.length + 4);
  const trade = async (wallet: string) =>
    post<{ timing_ms?: Record<string, number>; detail?: string; state_source?: string }>(
      "/v1/trades/execute",
      {
        ...spec.body,
        wallet,
        measure_timing: true,
      },
    );
  await Promise.all(
    spec.lanes.map(async (wallet) => {
      for (let i = 0; i < spec.warmup; i++) {
        // One retry: a keep-alive socket the localnet closed while idle fails the first send on it.
        let r = await trade(wallet);
        if (r.status !== 200) r = await trade(wallet);
        if (r.status !== 200)
          throw new Error(`${spec.name}: warm-up trade failed: ${r.status} ${r.body.detail}`);
      }
    }),
  );

  await target.localnet.resetStats();
  const cpu0 = cpuMsOf(target.pid);
  const localCpu0 = target.localnetPid > 0 ? cpuMsOf(target.localnetPid) : NaN;
  const latencies: number[] = [];
  const stages: Record<string, number> = {};
  let errors = 0;
  let cached = 0;
  let started = 0;
  const t0 = performance.now();
  const deadline = spec.durationMs === undefined ? Infinity : t0 + spec.durationMs;
  await Promise.all(
    spec.lanes.map(async (wallet) => {
      while (started < spec.trades && performance.now() < deadline) {
        const slot = started++;
        if (spec.ratePerSecond !== undefined) {
          const wait = t0 + (slot * 1000) / spec.ratePerSecond - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          if (performance.now() >= deadline) break;
        }
        const s = performance.now();
        const r = await trade(wallet);
        latencies.push(performance.now() - s);
        if (r.status !== 200) {
          errors++;
          continue;
        }
        if (r.body.state_source === "cache") cached++;
        for (const [k, v] of Object.entries(r.body.timing_ms ?? {})) stages[k] = (stages[k] ?? 0) + v;
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpuMs = cpuMsOf(target.pid) - cpu0;
  const localCpuMs = target.localnetPid > 0 ? cpuMsOf(target.localnetPid) - localCpu0 : NaN;
  const stats = await target.localnet.stats();
  const n = latencies.length;
  const sorted = [...latencies].sort((a, b) => a - b);
  const callsPerTrade: Record<string, number> = {};
  for (const [k, v] of Object.entries(stats)) {
    // Tagged calls (cache refreshes, warm-state seeding, subscriptions) are off the request path by definition.
    if (k.startsWith("background:")) continue;
    const own = v - (target.backgroundPerSecond[k] ?? 0) * (wallMs / 1000);
    if (own / n >= 0.005) callsPerTrade[k] = own / n;
  }
  return {
    name: spec.name,
    trades: n,
    concurrency: spec.lanes.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    tradesPerSecond: (n / wallMs) * 1000,
    callsPerTrade,
    serviceCpuMsPerTrade: cpuMs / Math.max(1, n),
    serviceCpuShare: cpuMs / wallMs,
    localnetCpuShare: localCpuMs / wallMs,
    peakRssMb: peakRssMbOf(target.pid),
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v / Math.max(1, n - errors)])),
    errors,
    cacheShare: cached / Math.max(1, n - errors),
  };
}
