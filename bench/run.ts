/**
 * `npm run bench [-- options]`: the service measured as deployed, apart from the chain, side by side with a
 * baseline client built on the official SDK (docs/benchmarks.md keeps the latest full run).
 *
 * The localnet runs in its own process (or the one named by RPC_URL / RELAY_URL, see `clusterInfo`), with
 * `--latency-ms` (default 20) added to every RPC and relay call; the service runs in its own process on a
 * fresh SQLite file. Prints markdown tables: service scenarios, baseline, the ratios, the build + sign
 * micro-benchmark, the cashback check, and each issue-10 target against its measured figure.
 *
 * Options: --latency-ms 20 --trades 300 --warmup 30 --concurrency 64 --duration-s 15 --baseline-trades 100
 * --micro 3000 --cashback-repeats 20 --slot-ms 400 --profile (service under --cpu-prof; prints the file)
 * --quick (tiny counts: the smoke form run by test/bench/bench-smoke.test.ts) --relay-executes-first (the
 * localnet executes a send before answering it, as before 26 Nov; by default it answers on acceptance and
 * executes right after, as a real relay and an RPC node's skipPreflight send do: service and baseline alike).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { createChain } from "../src/chain/chain.js";
import { createJsonRpcTransport } from "../src/chain/json-rpc.js";
import { localnetChainOptions } from "../src/chain/localnet-options.js";
import { cashbackReadPlan } from "../src/launch/cashback-accounts.js";
import {
  REPO_ROOT,
  freshPgDatabase,
  freshSqliteDatabase,
  fundedWallet,
  localnetClient,
  percentile,
  setupKey,
  startLocalnetProcess,
  type LocalnetClient,
  type TestDatabase,
} from "../test/harness/index.js";
import { baselineJob, runBaseline, runStreamBench } from "./child-benches.js";
import { clusterInfo, parseBenchArgs, type BenchOptions } from "./options.js";
import type { BaselineJob } from "./baseline-client.js";
import { benchBuildSign, type BuildSignResult } from "./build-sign.js";
import { apiClient, measureBackground, runScenario, type ScenarioResult, type Target } from "./load.js";
import { cpuMsOf, memoryBreakdown, peakRssMbOf } from "./process-stats.js";
import { runChurn, type ChurnResult } from "./churn.js";
import { renderReport, type CashbackResult } from "./report.js";
import { startBenchService } from "./bench-service.js";
import { landingSection } from "./landing-scenario.js";
import { ordersOnly, runOrdersBench } from "./orders-child.js";

// The command line lives in options.ts; the smoke test and other callers import it from here as before.
export { parseBenchArgs, type BenchOptions };

/** p50 of `repeats` runs of `f` (ms). */
async function p50Of(repeats: number, f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

async function cashbackCheck(
  target: Target,
  apiKey: string,
  localnet: LocalnetClient,
  repeats: number,
): Promise<CashbackResult> {
  // Fresh addresses: their accumulators do not exist, which costs the service the same read and math.
  const wallets = Array.from({ length: 100 }, () => Keypair.generate().publicKey.toBase58());
  const post = apiClient(target.baseUrl, apiKey);
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    const r = await post<{ wallets?: unknown[]; detail?: string }>("/v1/cashback/check", { wallets });
    if (r.status !== 200 || r.body.wallets?.length !== 100)
      throw new Error(`cashback check: ${r.status} ${r.body.detail}`);
    return performance.now() - t0;
  };
  await localnet.resetStats();
  const cold = await once();
  const coldCalls = await localnet.stats();
  const cpu0 = cpuMsOf(target.pid);
  await localnet.resetStats();
  const warm: number[] = [];
  for (let i = 0; i < repeats; i++) warm.push(await once());
  const cpuMs = (cpuMsOf(target.pid) - cpu0) / Math.max(1, repeats);
  const stats = await localnet.stats();
  const warmTotal = warm.reduce((a, b) => a + b, 0);
  const sorted = warm.sort((a, b) => a - b);
  // The same two reads sent straight to the localnet: what the upstream alone takes, latency included.
  const plan = cashbackReadPlan(wallets.map((w) => new PublicKey(w)));
  const rpc = createJsonRpcTransport({ url: localnet.info.rpcUrl, timeoutMs: 30_000 });
  const chunks = [plan.addresses.slice(0, 100), plan.addresses.slice(100)];
  const upstreamP50 = await p50Of(Math.max(1, repeats), () =>
    Promise.all(
      chunks.map((c) =>
        rpc.call("getMultipleAccounts", [
          c.map((k) => k.toBase58()),
          { encoding: "base64", commitment: "confirmed" },
        ]),
      ),
    ),
  );
  const calls = (s: Record<string, number>, n: number, ms: number) =>
    Object.fromEntries(
      Object.entries(s)
        .map(([k, v]) => [k, (v - (target.backgroundPerSecond[k] ?? 0) * (ms / 1000)) / n] as const)
        .filter(([, v]) => v >= 0.05),
    );
  return {
    wallets: 100,
    coldMs: cold,
    coldCalls: calls(coldCalls, 1, cold),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    callsPerCheck: calls(stats, Math.max(1, repeats), warmTotal),
    cpuMsPerCheck: cpuMs,
    upstreamP50,
  };
}

/** One service configuration under measurement. */
interface Variant {
  name: string;
  database: () => Promise<TestDatabase>;
  /** Only the headline and the parallel scenarios (the other variants exist to compare those). */
  short: boolean;
  /** More service environment (e.g. WATCHED_MINTS_MAX=0: the cold path, every trade reads). */
  env?: Record<string, string>;
}

function variants(o: BenchOptions, env: NodeJS.ProcessEnv): Variant[] {
  const list: Variant[] = [
    { name: "SQLite, synchronous=full (default)", database: async () => freshSqliteDatabase(), short: false },
  ];
  if (o.quick) return list;
  list.push({
    name: "SQLite, warm state off (WATCHED_MINTS_MAX=0)",
    database: async () => freshSqliteDatabase(),
    short: true,
    env: { WATCHED_MINTS_MAX: "0" },
  });
  list.push({
    name: "SQLite, synchronous=normal",
    database: async () => {
      const db = freshSqliteDatabase();
      return { ...db, url: `${db.url}?synchronous=normal` };
    },
    short: true,
  });
  const pgUrl = env.TEST_DATABASE_URL;
  if (pgUrl) list.push({ name: "PostgreSQL", database: () => freshPgDatabase(pgUrl, "bench"), short: true });
  return list;
}

/** Runs the whole benchmark and returns the markdown report. */
export async function runBench(o: BenchOptions, log: (line: string) => void = () => {}): Promise<string> {
  const given = clusterInfo(process.env);
  const localnetProcess = given === null ? await startLocalnetProcess({ slotMs: o.slotMs }) : null;
  const info = given ?? localnetProcess!.info;
  const localnet = localnetProcess ?? localnetClient(info);
  const profileDir = o.profile ? mkdtempSync(join(tmpdir(), "lt-bench-prof-")) : null;
  // The service runs as deployed: the compiled build (npm start). Built here when dist/ is missing.
  if (!existsSync(join(REPO_ROOT, "dist", "main.js"))) {
    log("building the service (npm run build:service)");
    execFileSync("npm", ["run", "build:service"], { cwd: REPO_ROOT, stdio: "ignore" });
  }
  try {
    const curve = (await localnet.createToken()).mint;
    const swap = (await localnet.createToken()).mint;
    await localnet.complete(swap);
    await localnet.migrate(swap);
    const off = { simulate: false, confirm: false };
    const buy = { action: "buy", amount: "0.001" };
    const scenarios: ScenarioResult[] = [];
    let cashback: CashbackResult | null = null;
    let peakRssMb = 0;
    let memory = "";
    let churn: ChurnResult | null = null;
    // Every RPC and relay call delayed alike; sends answered as the relay of the run answers them.
    const upstream = {
      latencyMs: o.latencyMs,
      endpoints: ["rpc", "relay"] as ("rpc" | "relay")[],
      ...(o.answerOnAcceptance ? { answerOnAcceptance: true } : {}),
    };

    for (const variant of variants(o, process.env)) {
      const db = await variant.database();
      await localnet.clearFaults();
      const service = await startBenchService({
        localnet: info,
        databaseUrl: db.url,
        env: variant.env,
        ...(profileDir !== null && !variant.short
          ? { nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir] }
          : {}),
      });
      try {
        log(`${variant.name}: service ${service.baseUrl} (pid ${service.pid}), localnet pid ${info.pid}`);
        const { apiKey, wallet } = await setupKey(service.baseUrl, localnet, { sol: 1_000n });
        const lanes = [wallet];
        while (lanes.length < o.concurrency)
          lanes.push(await fundedWallet(service.baseUrl, localnet, apiKey, 100n));
        await localnet.setFaults(upstream);
        log("measuring the idle service's own calls");
        const target: Target = {
          baseUrl: service.baseUrl,
          pid: service.pid,
          localnetPid: info.pid,
          localnet,
          backgroundPerSecond: await measureBackground(localnet, o.quick ? 500 : 4_000),
        };
        const one = [wallet];
        // The first variant is the default configuration; the others are named in their rows.
        const label = (name: string) => (variant.short ? `${name} [${variant.name}]` : name);
        const run = async (name: string, body: Record<string, unknown>, lanesOf: string[], extra = {}) => {
          log(`scenario: ${label(name)}`);
          scenarios.push(
            await runScenario(target, apiKey, {
              name: label(name),
              body,
              lanes: lanesOf,
              trades: o.trades,
              warmup: o.warmup,
              ...extra,
            }),
          );
        };
        const parallel = { trades: Number.MAX_SAFE_INTEGER, durationMs: o.durationS * 1000, warmup: 1 };
        await run("curve buy, simulate off, confirm off", { ...buy, mint: curve, ...off }, one);
        if (!variant.short) {
          await run(
            "curve sell, simulate off, confirm off",
            { action: "sell", amount: "1000000000", mint: curve, ...off },
            one,
          );
          await run("swap buy, simulate off, confirm off", { ...buy, mint: swap, ...off }, one);
          await run("curve buy, simulate on, confirm off", { ...buy, mint: curve, confirm: false }, one);
          await run(
            `curve buy, confirm off, ${o.concurrency} parallel`,
            { ...buy, mint: curve, ...off },
            lanes,
            parallel,
          );
        }
        // The localnet executes every landed transaction on its one event loop (tens of ms each), which caps
        // what any client can send through it; with neverLand the relay checks and accepts without executing,
        // so the figure is the service's own.
        await localnet.setFaults({ ...upstream, neverLand: true });
        await run(
          `curve buy, confirm off, ${o.concurrency} parallel, relay accepts without executing`,
          { ...buy, mint: curve, ...off },
          lanes,
          parallel,
        );
        await localnet.setFaults(upstream);
        if (!variant.short) {
          log("state churn: 200 mints watched and traded at once");
          churn = await runChurn(target, apiKey, localnet, {
            mints: o.quick ? 5 : 200,
            lanes: lanes.slice(0, 8),
            durationMs: o.durationS * 1000,
            maxAgeSlots: 2,
          });
        }
        if (!variant.short) {
          log("cashback check of 100 wallets");
          cashback = await cashbackCheck(target, apiKey, localnet, o.cashbackRepeats);
        }
        const variantPeak = peakRssMbOf(service.pid);
        log(`${variant.name}: service peak RSS ${variantPeak.toFixed(1)} MB`);
        peakRssMb = Math.max(peakRssMb, variantPeak);
        if (!variant.short) memory = await memoryBreakdown(service.baseUrl);
      } finally {
        await service.stop().catch(() => {});
        await db.drop().catch(() => {});
      }
    }

    log("baseline client (official SDK, own process)");
    await localnet.setFaults(upstream);
    const baselineWallet = Keypair.generate();
    await localnet.fund(baselineWallet.publicKey.toBase58(), 1_000n * 1_000_000_000n);
    const job = (mode: BaselineJob["mode"]) =>
      baselineJob(info, baselineWallet, curve, { trades: o.baselineTrades, warmup: o.warmup, mode });
    const baseline = { sequential: runBaseline(job("sequential")), parallel: runBaseline(job("parallel")) };

    log("build + sign micro-benchmark");
    await localnet.clearFaults();
    const chain = createChain(
      localnetChainOptions(
        { ...info, relayTipLamports: BigInt(info.relayTipLamports) },
        { cacheRefreshMs: 60_000 },
      ),
    );
    await chain.start();
    let micro: BuildSignResult[];
    try {
      micro = [await benchBuildSign(chain, curve, o.micro), await benchBuildSign(chain, swap, o.micro)];
    } finally {
      chain.stop();
    }
    log("market stream (bench/stream.ts, own process)");
    const stream = runStreamBench(o);
    log("orders (bench/orders.ts, own process)");
    let orders = runOrdersBench(o.argv);
    // The whole bench also measures the orders on `npm start`'s store: a SQLite file whose commits reach the disk.
    if (!o.quick && !o.argv.includes("--orders-store")) {
      log("orders on a SQLite file (bench/orders.ts --store file, own process)");
      orders = `${orders}\n\n${runOrdersBench([...o.argv, "--orders-store", "file"])}`;
    }
    const profile =
      profileDir === null
        ? null
        : (readdirSync(profileDir)
            .map((f) => join(profileDir, f))
            .sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? null);
    const report = renderReport({
      options: o,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average at the end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}`,
      scenarios,
      baseline,
      micro,
      cashback: cashback!,
      peakRssMb,
      memory,
      profile,
      churn,
      stream,
    });
    return `${report}\n\n${orders}`;
  } finally {
    await localnetProcess?.stop().catch(() => {});
  }
}

if (process.argv[1]?.endsWith("bench/run.ts")) {
  const options = parseBenchArgs(process.argv.slice(2));
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const orders = ordersOnly(options.argv);
  const run = orders ? Promise.resolve(runOrdersBench(options.argv)) : runBench(options, log);
  run.then(
    async (report) => {
      process.stdout.write(`${report}\n`);
      // The landing scenario (bench/landing-scenario.ts): its own in-process sandbox, after the service's.
      if (!orders) process.stdout.write(`\n${await landingSection(options.quick, log)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
