/**
 * Trade benchmark against the in-process localnet (`npm run bench [-- --trades 100 --slot-ms 400]`):
 * latency percentiles of POST /v1/trades/execute through the real app and chain layer, and the upstream
 * round trips per trade counted by the localnet. Prints a markdown table (docs/benchmarks.md keeps results).
 */
import { cpus } from "node:os";
import { startE2e, type E2e } from "../test/helpers/e2e.js";

interface Scenario {
  name: string;
  venue: "curve" | "swap";
  body: Record<string, unknown>;
  concurrency: number;
}

interface Result {
  scenario: Scenario;
  latencies: number[];
  /** Sum of each timing_ms key over the measured trades. */
  stages: Record<string, number>;
  calls: Record<string, number>;
  wallMs: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");

async function runScenario(e2e: E2e, scenario: Scenario, trades: number): Promise<Result> {
  const { apiKey } = await e2e.setup({ sol: 10_000n });
  // One extra wallet per concurrent lane, so parallel trades never share a fee payer.
  const lanes = [undefined as string | undefined];
  for (let i = 1; i < scenario.concurrency; i++) lanes.push(await e2e.fundedWallet(apiKey, 1_000n));
  const { mint } = e2e.localnet.admin.createToken();
  if (scenario.venue === "swap") {
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
  }
  // Warm-up: creates every lane's token accounts and loads the SDK code paths.
  for (const wallet of lanes) await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", wallet });

  const latencies: number[] = [];
  const stages: Record<string, number> = {};
  const calls: Record<string, number> = {};
  let lastRefresh = performance.now();
  const perLane = Math.ceil(trades / lanes.length);
  const t0 = performance.now();
  for (let round = 0; round < perLane; round++) {
    // Refresh the caches outside the measured requests (the blockhash must stay valid on fast slots),
    // then count only what the requests themselves cost.
    if (performance.now() - lastRefresh > 1_000) {
      await e2e.chain.caches.refresh();
      lastRefresh = performance.now();
    }
    e2e.localnet.admin.resetStats();
    await Promise.all(
      lanes.map(async (wallet) => {
        const start = performance.now();
        const timing = await trade(e2e, apiKey, { ...scenario.body, mint, wallet, measure_timing: true });
        latencies.push(performance.now() - start);
        for (const [k, v] of Object.entries(timing)) stages[k] = (stages[k] ?? 0) + v;
      }),
    );
    for (const [k, v] of Object.entries(e2e.localnet.admin.stats())) calls[k] = (calls[k] ?? 0) + v;
  }
  return { scenario, latencies, stages, calls, wallMs: performance.now() - t0 };
}

async function trade(
  e2e: E2e,
  apiKey: string,
  body: Record<string, unknown>,
): Promise<Record<string, number>> {
  const res = await e2e.post(apiKey, "/v1/trades/execute", body);
  if (res.statusCode !== 200) throw new Error(`trade failed: ${res.statusCode} ${res.body}`);
  return res.json<{ timing_ms?: Record<string, number> }>().timing_ms ?? {};
}

async function main(): Promise<void> {
  const trades = arg("trades", 100);
  const slotMs = arg("slot-ms", 400);
  const e2e = await startE2e({
    localnet: { slotMs },
    // Background refreshes would blur the per-request counts; the bench refreshes between rounds itself.
    chain: { cacheRefreshMs: 600_000, confirmTimeoutMs: 30_000, confirmPollMs: Math.min(100, slotMs) },
  });
  const buy = { action: "buy", amount: "0.001" };
  const scenarios: Scenario[] = [
    {
      name: "curve buy, simulate off, confirm off",
      venue: "curve",
      body: { ...buy, simulate: false, confirm: false },
      concurrency: 1,
    },
    {
      name: "curve buy, simulate on, confirm off",
      venue: "curve",
      body: { ...buy, confirm: false },
      concurrency: 1,
    },
    { name: "curve buy, simulate on, confirm on", venue: "curve", body: buy, concurrency: 1 },
    { name: "swap buy, simulate on, confirm on", venue: "swap", body: buy, concurrency: 1 },
    { name: "curve buy, simulate on, confirm on, 8 parallel", venue: "curve", body: buy, concurrency: 8 },
  ];
  const results: Result[] = [];
  try {
    for (const s of scenarios) {
      process.stderr.write(`running: ${s.name}\n`);
      results.push(await runScenario(e2e, s, trades));
    }
  } finally {
    await e2e.close();
  }

  const lines = [
    `Trades per scenario: ${trades}; localnet slot ${slotMs} ms; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
    "",
    "| scenario | p50 ms | p95 ms | max ms | trades/s | mean timing_ms (wallet/amount/build/sender/confirmation/database) | upstream calls per trade |",
    "|---|---:|---:|---:|---:|---|---|",
  ];
  for (const r of results) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    const n = r.latencies.length;
    const perTrade = Object.entries(r.calls)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${(v / n).toFixed(2)}`)
      .join(", ");
    const stages = ["wallet", "amount", "build", "sender", "confirmation", "database"]
      .map((k) => fmt((r.stages[k] ?? 0) / n))
      .join(" / ");
    lines.push(
      `| ${r.scenario.name} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${fmt(sorted[n - 1] ?? NaN)} | ${fmt((n / r.wallMs) * 1000)} | ${stages} | ${perTrade} |`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
