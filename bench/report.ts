/** The benchmark's markdown report: service and baseline side by side, ratios, and each issue-10 target. */
import type { BaselineResult } from "./baseline-client.js";
import type { BuildSignResult } from "./build-sign.js";
import type { ScenarioResult } from "./load.js";
import { renderChurn, type ChurnResult } from "./churn.js";
import type { BenchOptions } from "./options.js";
import { percentile } from "../test/harness/index.js";

/** The cashback check of 100 wallets. */
export interface CashbackResult {
  wallets: number;
  /** First check: every wallet's addresses derived for the first time. */
  coldMs: number;
  coldCalls: Record<string, number>;
  p50: number;
  p95: number;
  callsPerCheck: Record<string, number>;
  cpuMsPerCheck: number;
  /** p50 of the same two reads sent straight to the localnet (latency included). */
  upstreamP50: number;
}

/** Everything one run measured. */
export interface BenchReport {
  options: BenchOptions;
  machine: string;
  scenarios: ScenarioResult[];
  baseline: { sequential: BaselineResult; parallel: BaselineResult };
  micro: BuildSignResult[];
  cashback: CashbackResult;
  peakRssMb: number;
  /** The service's memory after the parallel scenarios, from its /metrics. */
  memory: string;
  /** The service's .cpuprofile when run with --profile. */
  profile: string | null;
  /** The 200-mint state-churn scenario (issue 18); null when skipped. */
  churn: ChurnResult | null;
  /** bench/stream.ts's markdown table (issue 21). */
  stream: string;
}

const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "-");
const calls = (c: Record<string, number>): string =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ") || "-";

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

/** Renders the report as markdown. */
export function renderReport(r: BenchReport): string {
  const o = r.options;
  const headline = r.scenarios[0]!;
  const defaults = r.scenarios.filter((s) => !s.name.includes("["));
  const parallel =
    defaults.find((s) => s.concurrency > 1 && !s.name.includes("without executing")) ?? headline;
  const parallelOwn = defaults.find((s) => s.name.includes("without executing")) ?? parallel;
  const seq = { ...stats(r.baseline.sequential.latenciesMs), bs: stats(r.baseline.sequential.buildSignMs) };
  const par = { ...stats(r.baseline.parallel.latenciesMs), bs: stats(r.baseline.parallel.buildSignMs) };
  const curveMicro = r.micro[0]!;
  const lines: string[] = [
    `Command: \`npm run bench${o.argv.length ? ` -- ${o.argv.join(" ")}` : ""}\`; ${new Date().toISOString()}`,
    `Machine: ${r.machine}. Injected latency ${o.latencyMs} ms per RPC and relay call (a round trip: each call handled half-way); ${o.answerOnAcceptance ? "sends answered on acceptance, executed right after" : "sends executed before they are answered"}; localnet slot ${o.slotMs} ms; service on SQLite (file), reconciliation off, LOG_LEVEL=warn.`,
    "",
    "### Service (its own process; localnet in another)",
    "",
    "| scenario | trades | lanes | p50 ms | p95 ms | p99 ms | trades/s | service CPU ms/trade | CPU cores busy: service / localnet | upstream calls per trade (request path) | quoted on warm state | mean timing_ms wallet/amount/build/sender/database | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---|---:|",
    ...r.scenarios.map(
      (s) =>
        `| ${s.name} | ${s.trades} | ${s.concurrency} | ${f1(s.p50)} | ${f1(s.p95)} | ${f1(s.p99)} | ${f1(s.tradesPerSecond)} | ${f2(s.serviceCpuMsPerTrade)} | ${f2(s.serviceCpuShare)} / ${f2(s.localnetCpuShare)} | ${calls(s.callsPerTrade)} | ${(s.cacheShare * 100).toFixed(0)} % | ${["wallet", "amount", "build", "sender", "database"].map((k) => f1(s.stages[k] ?? NaN)).join(" / ")} | ${s.errors} |`,
    ),
    ...renderChurn(r.churn),
    "",
    `CPU cores busy: CPU time over wall time of each process during the scenario (the cores named under Machine are shared by the service, the localnet, the bench client and whatever else runs on it). Service peak RSS ${f1(r.peakRssMb)} MB; after the parallel scenarios (MB): ${r.memory}.`,
    "",
    "### Market stream (issue 21; bench/stream.ts in its own process: localnet, service and stream clients)",
    "",
    r.stream,
    "",
    "### Baseline client (official SDK online helpers, web3.js signing, same relay and latency; own process)",
    "",
    "| mode | trades | p50 ms | p95 ms | p99 ms | build+sign p50 ms | build+sign p99 ms | client CPU ms/trade | peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...(["sequential", "parallel"] as const).map((m) => {
      const b = r.baseline[m];
      const s = m === "sequential" ? seq : par;
      return `| ${m} reads | ${b.latenciesMs.length} | ${f1(s.p50)} | ${f1(s.p95)} | ${f1(s.p99)} | ${f2(s.bs.p50)} | ${f2(s.bs.p99)} | ${f2(b.cpuMs / Math.max(1, b.latenciesMs.length))} | ${f1(b.peakRssMb)} |`;
    }),
    "",
    "### Side by side (curve buy, simulate off, confirm off)",
    "",
    "| | service | baseline, sequential reads | ratio | baseline, parallel reads | ratio |",
    "|---|---:|---:|---:|---:|---:|",
    `| e2e p50 ms | ${f1(headline.p50)} | ${f1(seq.p50)} | ${f2(headline.p50 / seq.p50)} | ${f1(par.p50)} | ${f2(headline.p50 / par.p50)} |`,
    `| e2e p99 ms | ${f1(headline.p99)} | ${f1(seq.p99)} | ${f2(headline.p99 / seq.p99)} | ${f1(par.p99)} | ${f2(headline.p99 / par.p99)} |`,
    `| build+sign p50 ms | ${f2(curveMicro.p50)} | ${f2(seq.bs.p50)} | ${f2(curveMicro.p50 / seq.bs.p50)} | ${f2(par.bs.p50)} | ${f2(curveMicro.p50 / par.bs.p50)} |`,
    `| round trips in series | ${headline.callsPerTrade["rpc.getMultipleAccounts"] !== undefined ? 2 : "-"} | 5 | | 2 | |`,
    "",
    "### Build + sign of one trade (service code, in-process, no network)",
    "",
    "| venue | iterations | p50 ms | p95 ms | p99 ms | max ms | mean ms | CPU-time p50 ms | CPU-time p99 ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...r.micro.map(
      (m) =>
        `| ${m.venue} | ${m.iterations} | ${f2(m.p50)} | ${f2(m.p95)} | ${f2(m.p99)} | ${f2(m.max)} | ${f2(m.mean)} | ${f2(m.cpuP50)} | ${f2(m.cpuP99)} |`,
    ),
    "",
    "### Cashback check of 100 wallets",
    "",
    "| | latency ms | upstream calls | service CPU ms/check | service time ms (latency − upstream p50) |",
    "|---|---:|---|---:|---:|",
    `| first check (addresses derived) | ${f1(r.cashback.coldMs)} | ${calls(r.cashback.coldCalls)} | | ${f1(r.cashback.coldMs - r.cashback.upstreamP50)} |`,
    `| repeated, p50 / p95 | ${f1(r.cashback.p50)} / ${f1(r.cashback.p95)} | ${calls(r.cashback.callsPerCheck)} | ${f2(r.cashback.cpuMsPerCheck)} | ${f1(r.cashback.p50 - r.cashback.upstreamP50)} |`,
    `| the same two reads straight to the localnet, p50 | ${f1(r.cashback.upstreamP50)} | | | |`,
    "",
    "### Targets (issue 10)",
    "",
    "| target | measured | met |",
    "|---|---|---|",
    target(
      "build+sign p50 ≤ 1 ms",
      `${f2(curveMicro.p50)} ms (curve), ${f2(r.micro[1]?.p50 ?? NaN)} ms (swap)`,
      Math.max(...r.micro.map((m) => m.p50)) <= 1,
    ),
    target(
      "build+sign p99 ≤ 3 ms",
      `${f2(curveMicro.p99)} ms (curve), ${f2(r.micro[1]?.p99 ?? NaN)} ms (swap)`,
      Math.max(...r.micro.map((m) => m.p99)) <= 3,
    ),
    target(
      "e2e ≤ 0.45 × baseline",
      `${f2(headline.p50 / seq.p50)} × sequential, ${f2(headline.p50 / par.p50)} × parallel (p50)`,
      headline.p50 / par.p50 <= 0.45
        ? true
        : headline.p50 / seq.p50 <= 0.45
          ? "against sequential only"
          : false,
    ),
    target(
      "≥ 800 trades/s per process",
      `${f1(parallelOwn.tradesPerSecond)} trades/s with the relay not executing, ${f1(parallel.tradesPerSecond)} with landing; ${f2(parallelOwn.serviceCpuMsPerTrade)} service CPU ms/trade → at most ${f1(1000 / parallelOwn.serviceCpuMsPerTrade)}/s per fully busy core`,
      parallelOwn.tradesPerSecond >= 800,
    ),
    target("peak RSS ≤ 200 MB", `${f1(r.peakRssMb)} MB`, r.peakRssMb <= 200),
    target(
      "cashback 100 wallets: ≤ 2 RPC calls",
      calls(r.cashback.callsPerCheck),
      Object.values(r.cashback.callsPerCheck).reduce((a, b) => a + b, 0) <= 2.05,
    ),
    target(
      "cashback 100 wallets: ≤ 50 ms service time",
      `${f1(r.cashback.p50 - r.cashback.upstreamP50)} ms (p50 check − p50 of its reads sent directly; CPU ${f2(r.cashback.cpuMsPerCheck)} ms); first check ${f1(r.cashback.coldMs - r.cashback.upstreamP50)} ms`,
      r.cashback.p50 - r.cashback.upstreamP50 <= 50,
    ),
  ];
  lines.push(...issue18Targets(r, headline, par, parallelOwn));
  if (r.profile !== null)
    lines.push(
      "",
      `Service CPU profile: \`${r.profile}\` (summarize with \`npx tsx bench/profile-summary.ts <file>\`).`,
    );
  return lines.join("\n");
}

function target(name: string, measured: string, met: boolean | string): string {
  return `| ${name} | ${measured} | ${met === true ? "yes" : met === false ? "**no**" : met} |`;
}

/** The goals of issue 18 against this run. */
function issue18Targets(
  r: BenchReport,
  headline: ScenarioResult,
  par: { p50: number; p99: number },
  parallelOwn: ScenarioResult,
): string[] {
  const cold = r.scenarios.find((s) => s.name.includes("warm state off") && s.concurrency === 1);
  const pg = r.scenarios.find((s) => s.name.includes("without executing") && s.name.includes("PostgreSQL"));
  const upstream = Object.values(headline.callsPerTrade).reduce((a, b) => a + b, 0);
  return [
    "",
    "### Targets (issue 18)",
    "",
    "| target | measured | met |",
    "|---|---|---|",
    target(
      "warm trade: 1 upstream call on the request path",
      `${calls(headline.callsPerTrade)} (${(headline.cacheShare * 100).toFixed(0)} % of trades quoted on warm state)`,
      upstream <= 1.05,
    ),
    target(
      "warm trade e2e p50 ≤ 0.5 × baseline with parallel reads",
      `${f1(headline.p50)} / ${f1(par.p50)} ms = ${f2(headline.p50 / par.p50)} ×` +
        (cold !== undefined
          ? `; cold (warm state off) ${f1(cold.p50)} ms = ${f2(cold.p50 / par.p50)} ×`
          : ""),
      headline.p50 / par.p50 <= 0.5,
    ),
    target(
      "warm trade e2e p99 ≤ 0.6 × baseline with parallel reads",
      `${f1(headline.p99)} / ${f1(par.p99)} ms = ${f2(headline.p99 / par.p99)} ×` +
        (cold !== undefined ? `; cold ${f1(cold.p99)} ms` : ""),
      headline.p99 / par.p99 <= 0.6,
    ),
    target(
      "≥ 1,000 trades/s per process (SQLite, relay not executing, 64 lanes)",
      `${f1(parallelOwn.tradesPerSecond)} trades/s`,
      parallelOwn.tradesPerSecond >= 1000,
    ),
    target(
      "≥ 600 trades/s on PostgreSQL",
      pg !== undefined ? `${f1(pg.tradesPerSecond)} trades/s` : "not run (TEST_DATABASE_URL unset)",
      pg !== undefined && pg.tradesPerSecond >= 600,
    ),
    target(
      "service CPU per trade ≤ 1.0 ms",
      `${f2(parallelOwn.serviceCpuMsPerTrade)} ms`,
      parallelOwn.serviceCpuMsPerTrade <= 1,
    ),
    target("peak RSS ≤ 160 MB (compiled build)", `${f1(r.peakRssMb)} MB`, r.peakRssMb <= 160),
    target(
      "churn: no cached quote older than the bound",
      r.churn === null
        ? "not run"
        : `${r.churn.overBound} over ${r.churn.maxAgeSlots} slots; staleness p99 ${f1(r.churn.stalenessP99)} slots; hit rate ${(r.churn.hitRate * 100).toFixed(1)} %`,
      r.churn !== null && r.churn.overBound === 0,
    ),
  ];
}
