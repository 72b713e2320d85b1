/**
 * `npx tsx bench/idle-cpu.ts [--idle-s 10] [--trades 40] [--latency-ms 20] [--perf FILE]`: the service's CPU
 * while nothing trades (its own background work: slot and account notifications, timers), measured first on a
 * fresh service, then after `--trades` landed curve buys left their subscriptions warm (curve, vaults, the
 * wallet's accounts), and per landed trade over those trades. Separates the single-lane bench's CPU per trade
 * into idle cost per second and the cost of each trade. `--perf FILE`: `perf record` of the second idle window.
 */
import { loadavg } from "node:os";
import {
  freshSqliteDatabase,
  procUsage,
  setupKey,
  startLocalnetProcess,
  apiRequest,
} from "../test/harness/index.js";

import { perfRecord, runScript } from "./process-stats.js";
import { numberFlag, optionalFlag } from "./flags.js";
import { startBenchService } from "./bench-service.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PubSub notifications the service received since start (its own metric). */
async function notifications(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^lasertrade_chain_subscription_updates_total (\S+)$/m.exec(text)?.[1] ?? NaN);
}

/** Service CPU ms per second over `ms` of wall time. */
async function cpuPerSecond(pid: number, ms: number): Promise<number> {
  const a = procUsage(pid)!.cpuMs;
  const t0 = Date.now();
  await sleep(ms);
  return ((procUsage(pid)!.cpuMs - a) / (Date.now() - t0)) * 1000;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const idleMs = numberFlag(argv, "idle-s", 10) * 1000;
  const trades = numberFlag(argv, "trades", 40);
  const latencyMs = numberFlag(argv, "latency-ms", 20);
  const perfFile = optionalFlag(argv, "perf");
  const localnet = await startLocalnetProcess({ slotMs: 400 });
  const db = freshSqliteDatabase();
  const service = await startBenchService({
    localnet: localnet.info,
    databaseUrl: db.url,
    ...(perfFile !== undefined
      ? { nodeArgs: ["--perf-basic-prof", "--interpreted-frames-native-stack"] }
      : {}),
  });
  const load = () => loadavg()[0]!.toFixed(1);
  try {
    const mint = (await localnet.createToken()).mint;
    const { apiKey, wallet } = await setupKey(service.baseUrl, localnet, { sol: 1_000n });
    await localnet.setFaults({ latencyMs, endpoints: ["rpc", "relay"] });
    await sleep(2_000);
    const n0 = await notifications(service.baseUrl);
    const fresh = await cpuPerSecond(service.pid, idleMs);
    const n1 = await notifications(service.baseUrl);
    process.stdout.write(
      `idle, nothing traded yet: ${fresh.toFixed(2)} ms CPU/s, ${((n1 - n0) / (idleMs / 1000)).toFixed(1)} notifications/s (load ${load()})\n`,
    );
    const body = { action: "buy", amount: "0.001", mint, wallet, simulate: false, confirm: false };
    const c0 = procUsage(service.pid)!.cpuMs;
    const t0 = Date.now();
    for (let i = 0; i < trades; i++) {
      const r = await apiRequest(service.baseUrl, "POST", "/v1/trades/execute", { apiKey, body });
      if (r.status !== 200) throw new Error(`trade answered ${r.status}`);
    }
    await sleep(1_000); // the last trade's notifications
    const tradeCpu = procUsage(service.pid)!.cpuMs - c0;
    const n2 = await notifications(service.baseUrl);
    const wall = Date.now() - t0;
    process.stdout.write(
      `${trades} sequential landed trades: ${(tradeCpu / trades).toFixed(2)} ms CPU/trade gross, ` +
        `${((tradeCpu - (fresh * wall) / 1000) / trades).toFixed(2)} ms net of idle, ${((n2 - n1) / trades).toFixed(1)} notifications/trade (load ${load()})\n`,
    );
    await sleep(1_000);
    const recorder = perfFile !== undefined ? perfRecord(perfFile, [service.pid]) : null;
    const n3 = await notifications(service.baseUrl);
    const warm = await cpuPerSecond(service.pid, idleMs);
    const n4 = await notifications(service.baseUrl);
    if (recorder !== null) {
      const exited = new Promise((r) => recorder.once("exit", r));
      recorder.kill("SIGINT");
      await exited;
    }
    process.stdout.write(
      `idle, subscriptions warm: ${warm.toFixed(2)} ms CPU/s, ${((n4 - n3) / (idleMs / 1000)).toFixed(1)} notifications/s (load ${load()})\n`,
    );
  } finally {
    await service.stop().catch(() => {});
    await db.drop().catch(() => {});
    await localnet.stop().catch(() => {});
  }
}

runScript(main);
