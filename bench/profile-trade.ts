/**
 * `npx tsx bench/profile-trade.ts [--duration-s 20] [--concurrency 64] [--latency-ms 20] [--no-profile] [--land]
 *  [--pg URL [--pool N] [--pg-tally] [--perf-pg]] [--sqlite-synchronous normal] [--warmup-s 0] [--rate N]
 *  [--perf | --perf-plain | --perf-localnet] [--heap-sampling | --heap-sampling-live MS]`:
 * the service CPU of one warm trade, measured alone (issue 18's hot-path work). Starts a localnet process and
 * the compiled service (`dist/main.js`) under `node --cpu-prof`, runs the bench's parallel scenario (curve buy,
 * confirm and simulate off, relay accepting without executing) and prints: trades, service CPU ms per trade
 * (the service process's user + system time from /proc over the measured window, divided by the trades), and
 * the profile's top functions and folders by self time restricted to that window. The full `npm run bench` is
 * the report; this is the quick loop for profiling.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freshPgDatabase,
  procUsage,
  freshSqliteDatabase,
  fundedWallet,
  setupKey,
  startLocalnetProcess,
} from "../test/harness/index.js";
import { measureBackground, runScenario } from "./load.js";
import { memoryBreakdown, peakRssMbOf, perfRecord, runScript } from "./process-stats.js";
import { profileTables, summarizeProfile, type CpuProfileWindow } from "./profile-summary.js";
import { formatLoopWindow, startLoopWindow } from "./event-loop-probe.js";
import { formatPgPerTrade, readPgCounters } from "./pg-counters.js";
import { numberFlag, optionalFlag } from "./flags.js";
import { heapProfileTables } from "./heap-sampling-summary.js";
import pg from "pg";
import { startBenchService } from "./bench-service.js";
import { spinMs } from "./machine-speed.js";

/** Self CPU time per symbol and per file (JS frames name their file) from `perf report`, with µs per trade. */
function perfTables(file: string, trades: number, top: number): string {
  const text = execFileSync(
    "perf",
    ["report", "-i", file, "--stdio", "--no-children", "-g", "none", "--sort", "sym", "-F", "period,sym"],
    { maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] },
  ).toString();
  const rows: { sym: string; ns: number }[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s+(\d+)\s+\[.\]\s+(.*)$/.exec(line);
    if (m) rows.push({ ns: Number(m[1]), sym: m[2]!.trim() });
  }
  rows.sort((a, b) => b.ns - a.ns);
  const total = rows.reduce((a, r) => a + r.ns, 0);
  const bucket = new Map<string, number>();
  for (const r of rows) {
    // "JS:*name file:///…/node_modules/pkg/…:line:col" or a native symbol.
    const url = /(file:\/\/\S+|node:\S+)/.exec(r.sym)?.[1] ?? "";
    const nm = url.lastIndexOf("node_modules/");
    let b = "(native: V8, libuv, OpenSSL, SQLite, kernel)";
    if (nm >= 0) {
      const parts = url.slice(nm + 13).split("/");
      b = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
    } else if (url.startsWith("node:")) b = "node (built-in modules)";
    else if (url !== "") b = /\/dist\/((src|localnet)\/[^:]*)\/[^/]+:/.exec(url)?.[1] ?? url;
    else if (r.sym.startsWith("JS:") || r.sym.startsWith("Builtin:") || r.sym.startsWith("Bytecode"))
      b = "(V8 builtins / bytecode handlers)";
    bucket.set(b, (bucket.get(b) ?? 0) + r.ns);
  }
  const fmt = (name: string, ns: number) =>
    `| \`${name.replace(/file:\/\/\S*\/(node_modules|dist)\//, "")}\` | ${((ns / total) * 100).toFixed(1)} % | ${(ns / 1000 / trades).toFixed(1)} |`;
  return [
    `CPU samples (task-clock): ${(total / 1e6).toFixed(0)} ms over ${trades} trades = ${(total / 1e6 / trades).toFixed(3)} ms per trade`,
    "",
    "| package / folder | share | µs per trade |",
    "|---|---:|---:|",
    ...[...bucket.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => fmt(k, v)),
    "",
    "| function (self CPU) | share | µs per trade |",
    "|---|---:|---:|",
    ...rows.slice(0, top).map((r) => fmt(r.sym, r.ns)),
    "",
  ].join("\n");
}

/** Sends SIGUSR2 (the service runs with `--heapsnapshot-signal=SIGUSR2`) and waits for the new snapshot file. */
async function heapSnapshot(pid: number, baseUrl: string, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const file = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    // The snapshot is written on the service's main thread: the file is complete once it answers again.
    if (file !== undefined && (await fetch(`${baseUrl}/metrics`).catch(() => null))?.ok === true)
      return join(dir, file);
  }
  throw new Error("no heap snapshot written");
}

/** The contents of `file` once it exists and parses as JSON (the service writes it on its main thread). */
async function waitForFile(file: string): Promise<string> {
  for (let i = 0; i < 240; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    try {
      const text = readFileSync(file, "utf8");
      JSON.parse(text);
      return text;
    } catch {
      // not written yet, or written in part
    }
  }
  throw new Error(`${file} not written`);
}

/** The backends connected to the database `url` names (what the service opened), for `perf record -p`. */
async function backendPids(url: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

/** The service's pg tally (bench/pg-query-tally.mjs), read once its next write has happened. */
interface PgTally {
  queries: number;
  parsed: number;
  notifications: number;
  byStatement: Record<string, number>;
}

async function readTally(file: string): Promise<PgTally> {
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  return JSON.parse(readFileSync(file, "utf8")) as PgTally;
}

/** Round trips, server-side parses and notifications per trade over the window, and the statements behind them. */
function formatTally(before: PgTally, after: PgTally, trades: number): string {
  const per = (a: number, b: number) => ((a - b) / Math.max(1, trades)).toFixed(3);
  const rows = Object.entries(after.byStatement)
    .map(([k, n]) => [k, n - (before.byStatement[k] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `| ${per(n, 0)} | \`${k}\` |`);
  return [
    `pg per trade (service driver): round trips ${per(after.queries, before.queries)}, parsed by the server ` +
      `${per(after.parsed, before.parsed)}, notifications received ${per(after.notifications, before.notifications)}`,
    "",
    "| per trade | statement |",
    "|---:|---|",
    ...rows,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const durationMs = numberFlag(argv, "duration-s", 20) * 1000;
  const concurrency = numberFlag(argv, "concurrency", 64);
  const latencyMs = numberFlag(argv, "latency-ms", 20);
  const top = numberFlag(argv, "top", 25);
  const warmupMs = numberFlag(argv, "warmup-s", 0) * 1000;
  // --rate N: the measured window starts N trades per second (0: closed loop), so two builds are compared at
  // the same throughput (see runScenario's ratePerSecond).
  const rate = numberFlag(argv, "rate", 0);
  // --perf: `perf record -e task-clock` on the service during the measured window only. task-clock samples
  // only while the process is on a CPU, so on a loaded machine the table is CPU time (V8's --cpu-prof samples
  // by wall clock and charges time spent waiting for a CPU, or in fsync, to whatever ran last).
  // --perf-localnet: the same `perf record`, of the localnet process instead (its CPU per accepted send).
  const perfLocalnet = argv.includes("--perf-localnet");
  // --perf-plain: the same `perf record` of the service, without the flags that name JS frames for perf
  // (`--perf-basic-prof` writes a map line per code object, `--interpreted-frames-native-stack` copies the
  // interpreter entry per function: both add work to every compile). JS frames stay unnamed; V8's own
  // (compiler, GC) are named either way.
  const perfPlain = argv.includes("--perf-plain");
  const perf = argv.includes("--perf") || perfLocalnet || perfPlain;
  const profile = !perf && !argv.includes("--no-profile");
  const perfFlags = ["--perf-basic-prof", "--interpreted-frames-native-stack"];
  // --node-args "<flags>": extra node flags for the service (e.g. "--trace-deopt"), with --log-file for its output.
  const extraArgs = optionalFlag(argv, "node-args")?.split(" ") ?? [];
  const logFile = optionalFlag(argv, "log-file");
  // --heap-snapshot DIR: after the measured window (peak RSS read first: writing a snapshot takes memory),
  // the service writes a heap snapshot there on SIGUSR2, and a second one after --idle-s seconds (default 0: none).
  const snapDir = optionalFlag(argv, "heap-snapshot");
  const idleMs = numberFlag(argv, "idle-s", 0) * 1000;
  const dir = mkdtempSync(join(tmpdir(), "lt-prof-trade-"));
  // --pg-tally: the service counts its pg round trips by statement (bench/pg-query-tally.mjs), read per trade.
  const tallyFile = argv.includes("--pg-tally") ? join(dir, "pg-tally.json") : undefined;
  // --heap-sampling: V8's sampling heap profile of the service over the measured window, garbage included
  // (bench/heap-sampling.mjs), printed as allocation per trade by function. The sampler costs CPU: the run's
  // CPU figures are not comparable with a run without it.
  // --heap-sampling-live N: instead, what survives: garbage left out, taken N ms into the window after a forced
  // scavenge, while the trades are in flight (per trade of the whole window: compare runs of one N only).
  const liveMs = numberFlag(argv, "heap-sampling-live", 0);
  const heapFile =
    argv.includes("--heap-sampling") || liveMs > 0 ? join(dir, "window.heapprofile") : undefined;
  const localnet = await startLocalnetProcess({
    slotMs: 400,
    ...(perfLocalnet ? { nodeArgs: perfFlags } : {}),
  });
  // --pg URL: a fresh PostgreSQL database on that server; --sqlite-synchronous normal: the relaxed SQLite mode.
  const pgUrl = optionalFlag(argv, "pg");
  const synchronous = optionalFlag(argv, "sqlite-synchronous");
  const db = pgUrl !== undefined ? await freshPgDatabase(pgUrl, "prof") : freshSqliteDatabase();
  const databaseUrl = synchronous !== undefined ? `${db.url}?synchronous=${synchronous}` : db.url;
  const service = await startBenchService({
    localnet: localnet.info,
    databaseUrl,
    env: {
      ...(argv.includes("--pool") ? { DATABASE_POOL_SIZE: String(numberFlag(argv, "pool", 10)) } : {}),
      ...(tallyFile !== undefined ? { PG_TALLY_FILE: tallyFile } : {}),
      ...(heapFile !== undefined ? { HEAP_SAMPLING_FILE: heapFile } : {}),
      ...(liveMs > 0 ? { HEAP_SAMPLING_LIVE_MS: String(liveMs) } : {}),
    },
    nodeArgs: [
      ...extraArgs,
      ...(tallyFile !== undefined ? ["--import", join(import.meta.dirname, "pg-query-tally.mjs")] : []),
      ...(heapFile !== undefined ? ["--import", join(import.meta.dirname, "heap-sampling.mjs")] : []),
      ...(liveMs > 0 ? ["--expose-gc"] : []),
      ...(snapDir !== undefined ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapDir}`] : []),
      ...(profile ? ["--cpu-prof", "--cpu-prof-dir", dir] : []),
      ...(perf && !perfLocalnet && !perfPlain ? perfFlags : []),
    ],
    ...(logFile !== undefined ? { logFile } : {}),
  });
  let window: CpuProfileWindow | undefined;
  // The service's RSS per phase (sampled every 100 ms): where the peak of the run happens.
  let phase = "start";
  const rssByPhase = new Map<string, number>();
  const rssTimer = setInterval(() => {
    const rss = procUsage(service.pid)?.rssBytes ?? 0;
    rssByPhase.set(phase, Math.max(rssByPhase.get(phase) ?? 0, rss / 2 ** 20));
  }, 100);
  try {
    process.stderr.write(`service pid ${service.pid}\n`);
    phase = "set-up (64 wallets)";
    const mint = (await localnet.createToken()).mint;
    const { apiKey, wallet } = await setupKey(service.baseUrl, localnet, { sol: 1_000n });
    const lanes = [wallet];
    while (lanes.length < concurrency)
      lanes.push(await fundedWallet(service.baseUrl, localnet, apiKey, 100n));
    // --land: the relay executes each accepted send (the localnet's default), so every trade lands and the
    // service also pays for what a landed trade sets off (account, logs and slot notifications).
    const land = argv.includes("--land");
    const faults = { latencyMs, endpoints: ["rpc", "relay"] as ("rpc" | "relay")[] };
    // The warm-up's trades land, as the bench's landed scenario's do before its relay-accepting one: each lane's
    // wallet then holds the mint's token account (subscribed), the state the bench's figure is measured in.
    await localnet.setFaults(faults);
    const target = {
      baseUrl: service.baseUrl,
      pid: service.pid,
      localnetPid: localnet.info.pid,
      localnet,
      backgroundPerSecond: await measureBackground(localnet, 2_000),
    };
    const body = { action: "buy", amount: "0.001", mint, simulate: false, confirm: false };
    if (snapDir !== undefined)
      process.stdout.write(
        `heap snapshot before trading ${await heapSnapshot(service.pid, service.baseUrl, snapDir)}\n`,
      );
    // Warm-up: every lane trades until its state is subscribed; then the measured window.
    phase = "warm-up";
    await runScenario(target, apiKey, { name: "warm-up", body, lanes, trades: lanes.length * 3, warmup: 1 });
    if (!land) await localnet.setFaults({ ...faults, neverLand: true });
    // --warmup-s S: S more seconds of unmeasured trading, so the JIT has settled before the window (on a loaded
    // machine the window's few trades otherwise carry most of the compilation).
    if (warmupMs > 0)
      await runScenario(target, apiKey, {
        name: "warm-up",
        body,
        lanes,
        trades: Number.MAX_SAFE_INTEGER,
        warmup: 0,
        durationMs: warmupMs,
      });
    const perfFile = join(dir, "perf.data");
    const recorder = perf ? perfRecord(perfFile, [perfLocalnet ? localnet.info.pid : service.pid]) : null;
    // --perf-pg: `perf record` of this database's backends over the window (the server's CPU per trade by symbol).
    const pgPerfFile = join(dir, "perf-pg.data");
    const pgRecorder =
      argv.includes("--perf-pg") && db.kind === "postgres"
        ? perfRecord(pgPerfFile, await backendPids(db.url), false)
        : null;
    // The machine's speed right before and after the window (bench/machine-speed.ts): compare runs at like speeds.
    const spinBefore = spinMs();
    phase = "measured";
    const endLoopWindow = await startLoopWindow(service.baseUrl, service.pid);
    const pgBefore = db.kind === "postgres" ? await readPgCounters(db.url) : undefined;
    const tallyBefore = tallyFile !== undefined ? await readTally(tallyFile) : undefined;
    if (heapFile !== undefined) process.kill(service.pid, "SIGTTIN");
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const clientCpu0 = process.cpuUsage();
    // The log's byte offset at each end of the window: the part of a --trace-opt log written while measuring.
    const logOffset = () => (logFile !== undefined ? statSync(logFile).size : 0);
    if (logFile !== undefined)
      process.stdout.write(`measured window from ${new Date().toISOString()} (log offset ${logOffset()})\n`);
    const r = await runScenario(target, apiKey, {
      name: "measured",
      body,
      lanes,
      trades: Number.MAX_SAFE_INTEGER,
      warmup: 0,
      durationMs,
      ...(rate > 0 ? { ratePerSecond: rate } : {}),
    });
    window = { fromUs, toUs: Number(process.hrtime.bigint() / 1000n), trades: r.trades };
    if (logFile !== undefined)
      process.stdout.write(`measured window to ${new Date().toISOString()} (log offset ${logOffset()})\n`);
    if (heapFile !== undefined) {
      process.kill(service.pid, "SIGTTOU");
      const written = await waitForFile(heapFile);
      process.stdout.write(`heap sampling profile ${heapFile}\n`);
      process.stdout.write(heapProfileTables(JSON.parse(written).head, r.trades, top));
    }
    const loop = await endLoopWindow();
    const clientCpu = process.cpuUsage(clientCpu0);
    const clientShare = (clientCpu.user + clientCpu.system) / (window.toUs - window.fromUs);
    if (pgRecorder !== null) {
      const exited = new Promise((resolve) => pgRecorder.once("exit", resolve));
      pgRecorder.kill("SIGINT");
      await exited;
      process.stdout.write(`perf data of the database's backends ${pgPerfFile}\n`);
      process.stdout.write(perfTables(pgPerfFile, r.trades, top).replace(/^\| package.*?\n\n/ms, ""));
    }
    if (recorder !== null) {
      const exited = new Promise((resolve) => recorder.once("exit", resolve));
      recorder.kill("SIGINT");
      await exited;
      process.stdout.write(`perf data ${perfFile}\n`);
      process.stdout.write(perfTables(perfFile, r.trades, top));
    }
    process.stdout.write(
      `trades ${r.trades}, errors ${r.errors}, warm ${(r.cacheShare * 100).toFixed(0)} %, ${r.tradesPerSecond.toFixed(1)} trades/s, ` +
        `service CPU ${r.serviceCpuMsPerTrade.toFixed(3)} ms/trade (share ${r.serviceCpuShare.toFixed(2)}), ` +
        `calls ${JSON.stringify(r.callsPerTrade)}\n` +
        `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, service cores busy ${r.serviceCpuShare.toFixed(2)}, ` +
        `localnet ${r.localnetCpuShare.toFixed(2)} (${((r.localnetCpuShare / r.tradesPerSecond) * 1000).toFixed(3)} ms/trade), ` +
        `bench client ${clientShare.toFixed(2)} (${((clientShare / r.tradesPerSecond) * 1000).toFixed(3)} ms/trade), timing_ms ${JSON.stringify(Object.fromEntries(Object.entries(r.stages).map(([k, v]) => [k, Math.round(v * 10) / 10])))}\n` +
        `${formatLoopWindow(loop)}\n` +
        `peak RSS ${peakRssMbOf(service.pid).toFixed(1)} MB\n` +
        `machine speed: spin ${spinBefore} → ${spinMs()} ms (lower is faster; about 600 on a fast period)\n`,
    );
    process.stdout.write(`memory: ${await memoryBreakdown(service.baseUrl)}\n`);
    const phases = [...rssByPhase].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ");
    process.stdout.write(`max RSS by phase (MB): ${phases}\n`);
    if (pgBefore !== undefined)
      process.stdout.write(`${await formatPgPerTrade(db.url, pgBefore, r.trades)}\n`);
    if (tallyBefore !== undefined)
      process.stdout.write(formatTally(tallyBefore, await readTally(tallyFile!), r.trades));
    if (snapDir !== undefined) {
      process.stdout.write(`heap snapshot ${await heapSnapshot(service.pid, service.baseUrl, snapDir)}\n`);
      if (idleMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, idleMs));
        process.stdout.write(
          `memory after ${idleMs / 1000} s idle: ${await memoryBreakdown(service.baseUrl)}\n`,
        );
        process.stdout.write(
          `heap snapshot after idle ${await heapSnapshot(service.pid, service.baseUrl, snapDir)}\n`,
        );
      }
    }
  } finally {
    clearInterval(rssTimer);
    await service.stop().catch(() => {});
    await db.drop().catch(() => {});
    await localnet.stop().catch(() => {});
  }
  if (!profile || window === undefined) return;
  const file = readdirSync(dir)
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (file === undefined) throw new Error("no .cpuprofile written");
  process.stdout.write(`profile ${file}\n`);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Parameters<typeof summarizeProfile>[0];
  process.stdout.write(`${profileTables(summarizeProfile(parsed, window), top, window.trades)}\n`);
}

runScript(main);
