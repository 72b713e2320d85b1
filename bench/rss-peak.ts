/**
 * `npx tsx bench/rss-peak.ts [--trades 100] [--duration-s 15] [--concurrency 64] [--churn-mints 200] [--short]
 *  [--node-args "<flags>"] [--env NAME=value,…] [--heap-snapshot DIR] [--hold-s N] [--log-file FILE]`: the peak
 * RSS of the compiled service over the scenarios of `npm run bench`'s default variant (SQLite, warm state on), in
 * the same order: four single-lane scenarios, 64 lanes landing, 64 lanes with the relay accepting without
 * executing, the 200-mint churn and the cashback check, with smaller counts than the bench (issue 18's peak-RSS
 * goal is the whole bench's). Prints the service's VmHWM, the highest RSS seen in each phase, where the RSS was at
 * its highest (`/proc/<pid>/smaps` grouped: anonymous memory, which holds the V8 heap; glibc's main arena
 * `[heap]`; the node binary's pages; other files), V8's spaces and the relay-accepting scenario's CPU per trade,
 * so two builds can be compared back to back.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Keypair } from "@solana/web3.js";
import {
  freshSqliteDatabase,
  fundedWallet,
  procUsage,
  setupKey,
  startLocalnetProcess,
} from "../test/harness/index.js";
import { apiClient, measureBackground, runScenario, type Target } from "./load.js";
import { runChurn } from "./churn.js";
import { memoryBreakdown, peakRssMbOf, runScript } from "./process-stats.js";
import { numberFlag, optionalFlag } from "./flags.js";
import { startBenchService } from "./bench-service.js";

/** Resident MB of a process by kind of mapping, from /proc/<pid>/smaps. */
function smapsGroups(pid: number): Map<string, number> {
  const groups = new Map<string, number>();
  let name = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head !== null) {
      const file = head[1]!.trim();
      name =
        file === ""
          ? "anonymous (V8 heap, thread arenas, stacks)"
          : file === "[heap]"
            ? "[heap] (glibc main arena)"
            : /\/node$/.test(file)
              ? "node binary"
              : file.startsWith("[")
                ? file
                : (file.split("/").pop() ?? file);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null) groups.set(name, (groups.get(name) ?? 0) + Number(rss[1]) / 1024);
  }
  return groups;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const trades = numberFlag(argv, "trades", 100);
  const durationMs = numberFlag(argv, "duration-s", 15) * 1000;
  const concurrency = numberFlag(argv, "concurrency", 64);
  const churnMints = numberFlag(argv, "churn-mints", 200);
  const extraArgs = optionalFlag(argv, "node-args")?.split(" ") ?? [];
  const env = optionalFlag(argv, "env");
  const extraEnv =
    env === undefined
      ? {}
      : Object.fromEntries(
          env.split(",").map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
        );
  const snapDir = optionalFlag(argv, "heap-snapshot");
  // --log-file FILE: the service's stdout and stderr (e.g. glibc's malloc_stats() called from gdb).
  const logFile = optionalFlag(argv, "log-file");
  const localnet = await startLocalnetProcess({ slotMs: 400 });
  const db = freshSqliteDatabase();
  const service = await startBenchService({
    localnet: localnet.info,
    databaseUrl: db.url,
    env: extraEnv,
    nodeArgs: [
      ...extraArgs,
      ...(snapDir !== undefined ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapDir}`] : []),
    ],
    ...(logFile !== undefined ? { logFile } : {}),
  });
  let phase = "start";
  const byPhase = new Map<string, number>();
  let peak = 0;
  let atPeak = new Map<string, number>();
  const sampler = setInterval(() => {
    const rss = (procUsage(service.pid)?.rssBytes ?? 0) / 2 ** 20;
    byPhase.set(phase, Math.max(byPhase.get(phase) ?? 0, rss));
    if (rss > peak + 0.5) {
      peak = rss;
      try {
        atPeak = smapsGroups(service.pid);
      } catch {
        // The service exited: keep the last breakdown.
      }
    }
  }, 100);
  try {
    process.stderr.write(`service pid ${service.pid}\n`);
    phase = "set-up";
    const curve = (await localnet.createToken()).mint;
    const swap = (await localnet.createToken()).mint;
    await localnet.complete(swap);
    await localnet.migrate(swap);
    const { apiKey, wallet } = await setupKey(service.baseUrl, localnet, { sol: 1_000n });
    const lanes = [wallet];
    while (lanes.length < concurrency)
      lanes.push(await fundedWallet(service.baseUrl, localnet, apiKey, 100n));
    const upstream = {
      latencyMs: 20,
      endpoints: ["rpc", "relay"] as ("rpc" | "relay")[],
      answerOnAcceptance: true,
    };
    await localnet.setFaults(upstream);
    const target: Target = {
      baseUrl: service.baseUrl,
      pid: service.pid,
      localnetPid: localnet.info.pid,
      localnet,
      backgroundPerSecond: await measureBackground(localnet, 1_000),
    };
    const off = { simulate: false, confirm: false };
    const buy = { action: "buy", amount: "0.001" };
    const one = [wallet];
    const parallel = { trades: Number.MAX_SAFE_INTEGER, durationMs, warmup: 1 };
    const run = async (name: string, body: Record<string, unknown>, lanesOf: string[], extra = {}) => {
      phase = name;
      return runScenario(target, apiKey, { name, body, lanes: lanesOf, trades, warmup: 10, ...extra });
    };
    await run("curve buy", { ...buy, mint: curve, ...off }, one);
    // --short: the bench's other variants (warm state off, synchronous=normal, PostgreSQL) run only the headline
    // scenario and the relay-accepting one.
    const short = argv.includes("--short");
    if (!short) {
      await run("curve sell", { action: "sell", amount: "1000000000", mint: curve, ...off }, one);
      await run("swap buy", { ...buy, mint: swap, ...off }, one);
      await run("curve buy, simulate on", { ...buy, mint: curve, confirm: false }, one);
      await run("64 parallel, landing", { ...buy, mint: curve, ...off }, lanes, parallel);
    }
    await localnet.setFaults({ ...upstream, neverLand: true });
    const fast = await run("64 parallel, relay accepts", { ...buy, mint: curve, ...off }, lanes, parallel);
    await localnet.setFaults(upstream);
    let churnTrades = 0;
    if (!short) {
      phase = "churn";
      const churn = await runChurn(target, apiKey, localnet, {
        mints: churnMints,
        lanes: lanes.slice(0, 8),
        durationMs,
        maxAgeSlots: 2,
      });
      churnTrades = churn.trades;
      phase = "cashback";
      const wallets = Array.from({ length: 100 }, () => Keypair.generate().publicKey.toBase58());
      const post = apiClient(service.baseUrl, apiKey);
      for (let i = 0; i < 6; i++) await post("/v1/cashback/check", { wallets });
    }
    await new Promise((r) => setTimeout(r, 300));
    const vmHwm = peakRssMbOf(service.pid);
    process.stdout.write(
      `peak RSS (VmHWM) ${vmHwm.toFixed(1)} MB; load average ${loadavg()[0]!.toFixed(1)}\n` +
        `relay-accepting 64 lanes: ${fast.trades} trades, ${fast.tradesPerSecond.toFixed(1)} trades/s, ` +
        `service CPU ${fast.serviceCpuMsPerTrade.toFixed(3)} ms/trade, errors ${fast.errors}; churn ${churnTrades} trades\n` +
        `memory at the end: ${await memoryBreakdown(service.baseUrl)}\n` +
        `max RSS by phase (MB): ${[...byPhase].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}\n` +
        `at the highest sample (${peak.toFixed(1)} MB): ${[...atPeak]
          .filter(([, v]) => v >= 0.5)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(", ")}\n`,
    );
    // V8's spaces at the end: committed / used MB each (what the heap total is made of).
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    const spaces = [
      ...metrics.matchAll(/^nodejs_heap_space_size_(total|used)_bytes\{space="(\w+)"\} (\S+)$/gm),
    ];
    const space = new Map<string, string[]>();
    for (const [, kind, name, v] of spaces) {
      const mb = (Number(v) / 2 ** 20).toFixed(1);
      space.set(
        name!,
        kind === "total" ? [mb, ...(space.get(name!) ?? [])] : [...(space.get(name!) ?? []), mb],
      );
    }
    process.stdout.write(
      `V8 spaces (total / used MB): ${[...space].map(([k, v]) => `${k} ${v.join(" / ")}`).join(", ")}\n`,
    );
    if (snapDir !== undefined) process.kill(service.pid, "SIGUSR2");
    // --hold-s N: the service stays up N seconds more (to inspect it: smaps, gdb), or 8 s for a snapshot.
    const holdMs = numberFlag(argv, "hold-s", snapDir !== undefined ? 8 : 0) * 1000;
    if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
  } finally {
    clearInterval(sampler);
    await service.stop().catch(() => {});
    await db.drop().catch(() => {});
    await localnet.stop().catch(() => {});
  }
}

runScript(main);
