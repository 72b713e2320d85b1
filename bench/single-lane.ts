/**
 * `npx tsx bench/single-lane.ts [options]`: the bench's single-lane curve buy (simulate off, confirm off,
 * warm state) and the baseline client with parallel reads, side by side, in rounds that alternate how the
 * localnet's relay answers a send, so the two are measured back to back on the same localnet and service.
 * Issue 18's latency goal in isolation; `npm run bench` stays the full run.
 *
 * Options: --latency-ms 20 --trades 300 --warmup 30 --baseline-trades 100 --rounds 2
 * --modes acceptance,execution (the order within a round: "acceptance" = the relay answers on acceptance
 * and executes right after, `answerOnAcceptance`; "execution" = it executes before answering, the
 * localnet's default; "never" = it accepts and never executes, `neverLand`: no client's call waits behind an
 * execution, and no trade changes state) --sell (also the curve sell) --swap (also the swap buy) --trace (the
 * service runs with bench/lane-trace.mjs: a second table splits each service row's trades into stages, medians).
 * Prints one markdown table; the load average is read before and after each row.
 */
import { existsSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import {
  ascending,
  freshSqliteDatabase,
  percentile,
  postJsonRpc,
  setupKey,
  startLocalnetProcess,
} from "../test/harness/index.js";
import { baselineJob, runBaseline } from "./child-benches.js";
import { measureBackground, runScenario, type Target } from "./load.js";
import { runScript } from "./process-stats.js";
import { startBenchService } from "./bench-service.js";
import { countFlag, optionalFlag } from "./flags.js";

type Mode = "acceptance" | "execution" | "never";

const arg = (name: string, fallback: number): number => countFlag(process.argv, name, fallback);

function modes(): Mode[] {
  const list = (optionalFlag(process.argv, "modes") ?? "acceptance,execution").split(",");
  if (!list.every((m) => m === "acceptance" || m === "execution" || m === "never"))
    throw new Error("--modes takes acceptance, execution and/or never, comma-separated");
  return list as Mode[];
}

const load = () => loadavg()[0]!.toFixed(1);

/** The stages of `--trace`: from one mark of bench/lane-trace.mjs to the next (ms since the request began). */
const TRACE_STAGES: [string, string, string][] = [
  ["HTTP in, hooks before auth", "begin", "key.start"],
  ["auth, body, custody", "key.start", "wallet.start"],
  ["wallet lookup, quote, build, sign", "wallet.start", "insert.start"],
  ["pending insert (synced)", "insert.start", "insert.end"],
  ["to the relay request", "insert.end", "relay.start"],
  ["relay call", "relay.start", "relay.end"],
  ["to the outcome update", "relay.end", "update.start"],
  ["outcome update, answer built", "update.start", "activity.start"],
  ["activity row, answer written", "activity.start", "finish"],
];

/** The median of each traced stage over the last `n` trades of `file`, and of the whole server-side time. */
function traceMedians(file: string, n: number): { stages: number[]; server: number } {
  const lines = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(-n) : [];
  const trades = lines.map((l): Record<string, number> => ({ begin: 0, ...(JSON.parse(l) as object) }));
  const median = (values: number[]) => (values.length === 0 ? NaN : percentile(ascending(values), 50));
  const complete = trades.filter((t) => TRACE_STAGES.every(([, a, b]) => a in t && b in t));
  return {
    stages: TRACE_STAGES.map(([, a, b]) => median(complete.map((t) => t[b]! - t[a]!))),
    server: median(trades.map((t) => t.finish ?? NaN).filter(Number.isFinite)),
  };
}

/**
 * Of the wallet's `n` newest landed transactions, how many failed on chain: the trades are sent with confirm
 * off, so the service's answers cannot show a trade that landed with an error (a quote on state one trade
 * old, for instance). Waits a slot first, for the last trades to land.
 */
async function failedOnChain(rpcUrl: string, wallet: string, n: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_000));
  const { body } = await postJsonRpc<{ result?: { err: unknown }[] }>(rpcUrl, "getSignaturesForAddress", [
    wallet,
    { limit: n, commitment: "confirmed" },
  ]);
  return (body.result ?? []).filter((r) => r.err !== null).length;
}
const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const latencyMs = arg("latency-ms", 20);
  const trades = arg("trades", 300);
  const warmup = arg("warmup", 30);
  const baselineTrades = arg("baseline-trades", 100);
  const rounds = arg("rounds", 2);
  const localnetProcess = await startLocalnetProcess({ slotMs: 400 });
  const localnet = localnetProcess;
  const info = localnetProcess.info;
  const db = freshSqliteDatabase();
  const traceFile = process.argv.includes("--trace")
    ? join(tmpdir(), `lasertrade-lane-trace-${process.pid}.jsonl`)
    : undefined;
  const service = await startBenchService({
    localnet: info,
    databaseUrl: db.url,
    ...(traceFile !== undefined
      ? {
          nodeArgs: ["--import", join(import.meta.dirname, "lane-trace.mjs")],
          env: { LANE_TRACE_FILE: traceFile },
        }
      : {}),
  });
  const rows: string[] = [];
  const traceRows: string[] = [];
  try {
    const curve = (await localnet.createToken()).mint;
    const swap = (await localnet.createToken()).mint;
    await localnet.complete(swap);
    await localnet.migrate(swap);
    const { apiKey, wallet } = await setupKey(service.baseUrl, localnet, { sol: 1_000n });
    const baselineWallet = Keypair.generate();
    await localnet.fund(baselineWallet.publicKey.toBase58(), 1_000n * 1_000_000_000n);
    await localnet.setFaults({ latencyMs, endpoints: ["rpc", "relay"] });
    const target: Target = {
      baseUrl: service.baseUrl,
      pid: service.pid,
      localnetPid: info.pid,
      localnet,
      backgroundPerSecond: await measureBackground(localnet, 4_000),
    };
    const off = { simulate: false, confirm: false };
    const buy = { action: "buy", amount: "0.001" };
    const scenarios: [string, Record<string, unknown>][] = [["curve buy", { ...buy, mint: curve, ...off }]];
    if (process.argv.includes("--sell"))
      scenarios.push(["curve sell", { action: "sell", amount: "1000000000", mint: curve, ...off }]);
    if (process.argv.includes("--swap")) scenarios.push(["swap buy", { ...buy, mint: swap, ...off }]);
    for (let round = 1; round <= rounds; round++) {
      for (const mode of modes()) {
        await localnet.setFaults({
          latencyMs,
          endpoints: ["rpc", "relay"],
          ...(mode === "acceptance" ? { answerOnAcceptance: true } : {}),
          ...(mode === "never" ? { neverLand: true } : {}),
        });
        for (const [name, body] of scenarios) {
          const before = load();
          const s = await runScenario(target, apiKey, { name, body, lanes: [wallet], trades, warmup });
          const names = ["wallet", "amount", "build", "sender", "database"];
          const stages = names.map((k) => f1(s.stages[k] ?? 0)).join(" / ");
          // What the timed stages leave out: HTTP, fastify's hooks (the activity row), the client.
          const outside = s.p50 - names.reduce((sum, k) => sum + (s.stages[k] ?? 0), 0);
          const failed = mode === "never" ? "-" : await failedOnChain(info.rpcUrl, wallet, trades);
          rows.push(
            `| ${round} | ${mode} | service ${name} | ${s.trades} | ${f1(s.p50)} | ${f1(s.p95)} | ${f1(s.p99)} | ${stages} | ${f1(outside)} | ${(s.cacheShare * 100).toFixed(0)} % | ${s.serviceCpuMsPerTrade.toFixed(2)} | ${s.errors} / ${failed} | ${before} → ${load()} |`,
          );
          process.stderr.write(`${rows.at(-1)}\n`);
          if (traceFile !== undefined) {
            const t = traceMedians(traceFile, s.trades);
            traceRows.push(
              `| ${round} | ${mode} | service ${name} | ${t.stages.map((v) => v.toFixed(2)).join(" | ")} | ${f1(t.server)} | ${f1(s.p50 - t.server)} |`,
            );
          }
        }
        const before = load();
        const job = baselineJob(info, baselineWallet, curve, {
          trades: baselineTrades,
          warmup,
          mode: "parallel",
        });
        const b = runBaseline(job);
        const sorted = ascending(b.latenciesMs);
        const p = (q: number) => f1(percentile(sorted, q));
        rows.push(
          `| ${round} | ${mode} | baseline, parallel reads | ${sorted.length} | ${p(50)} | ${p(95)} | ${p(99)} | | | | | 0 / - | ${before} → ${load()} |`,
        );
        process.stderr.write(`${rows.at(-1)}\n`);
      }
    }
  } finally {
    await service.stop().catch(() => {});
    await db.drop().catch(() => {});
    await localnetProcess.stop().catch(() => {});
  }
  const header = [
    `Injected latency ${latencyMs} ms per RPC and relay call (a round trip: each call handled half-way); service compiled, SQLite file, warm state on, reconciliation off.`,
    "",
    "| round | relay answers on | client | trades | p50 ms | p95 ms | p99 ms | mean timing_ms wallet/amount/build/sender/database | p50 − Σ stages | warm | service CPU ms/trade | errors / landed with an error | load average (1 min) before → after |",
    "|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
  ];
  const trace =
    traceFile === undefined
      ? []
      : [
          "",
          "Where a service trade's time goes (`--trace`, medians in ms; server side from the request's start to its answer written):",
          "",
          `| round | relay answers on | client | ${TRACE_STAGES.map(([name]) => name).join(" | ")} | server total | client p50 − server |`,
          `|---:|---|---|${TRACE_STAGES.map(() => "---:|").join("")}---:|---:|`,
          ...traceRows,
        ];
  process.stdout.write(`${[...header, ...rows, ...trace].join("\n")}\n`);
}

runScript(main);
