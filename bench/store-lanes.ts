/**
 * `npx tsx bench/store-lanes.ts [--pg URL] [--lanes 64] [--duration-s 15] [--send-ms 20] [--pool 10] [--no-group]
 * [--wallets 1] [--random-ids] [--prefill 0]`: the
 * store's share of the 64-lane trade scenario, without the service, the chain or HTTP (issue 18's PostgreSQL
 * throughput): each lane repeats a trade's store calls on one API key — key lookup, wallet lookup, pending
 * insert, a wait standing for the relay's acceptance, outcome update, activity row — and the run prints trades
 * per second, the mean time of each call, and on PostgreSQL the commits per trade. The same key for every lane,
 * as in the bench: the case the events trigger's per-key lock serializes. `--no-group` turns PostgreSQL's group
 * commit off (the A/B). SQLite when no `--pg` (a temporary file). `--wallets N`: the lanes
 * take N wallets of the key in turn (the service bench gives each lane its own: `--wallets 64`).
 * `--random-ids`: version-4 execution ids, as the service gave before time-ordered ones (the A/B). `--prefill N`:
 * N executions (with their events) written first, a history such as a running service has.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { openStore } from "../src/store/index.js";
import { freshPgDatabase } from "../test/harness/index.js";
import { newExecution, newWalletRecord } from "../test/helpers/fixtures.js";
import { backendCpuNs, readPgCounters } from "./pg-counters.js";
import { numberFlag, optionalFlag } from "./flags.js";
import { timeOrderedUuid } from "../src/core/time-ordered-id.js";

const STAGES = ["key", "wallet", "insert", "update", "activity"] as const;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const lanes = numberFlag(argv, "lanes", 64);
  const durationMs = numberFlag(argv, "duration-s", 15) * 1000;
  const sendMs = numberFlag(argv, "send-ms", 20);
  const pgUrl = optionalFlag(argv, "pg");
  const randomIds = argv.includes("--random-ids");
  const dir = mkdtempSync(join(tmpdir(), "lt-store-lanes-"));
  const pgDb = pgUrl !== undefined ? await freshPgDatabase(pgUrl, "lanes") : undefined;
  const url = pgDb?.url ?? `sqlite:${join(dir, "db.sqlite")}`;
  const store = await openStore(url, dir, {
    pgGroupCommit: !argv.includes("--no-group"),
    pgPoolSize: numberFlag(argv, "pool", 10),
  });
  try {
    const wallets = Array.from(
      { length: Math.max(1, numberFlag(argv, "wallets", 1)) },
      (_, i) => `Wa11et${String(i).padStart(4, "0")}1111111111111111111111111111111111`,
    );
    const keyHash = `bench-${randomUUID()}`;
    const { apiKey } = await store.createApiKeyWithWallet(keyHash, newWalletRecord(wallets[0]!));
    for (const w of wallets.slice(1)) await store.addWallet(apiKey.id, newWalletRecord(w), false);
    const newId = () => (randomIds ? randomUUID() : timeOrderedUuid());
    // A history first (`--prefill`): written 500 at a time, so each group commits them together.
    for (let done = 0, n = numberFlag(argv, "prefill", 0); done < n; done += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, n - done) }, (_, i) =>
          store.insertExecution(
            newExecution(apiKey.id, wallets[i % wallets.length]!, {
              id: newId(),
              request: { action: "buy" },
            }),
          ),
        ),
      );
    }
    const spent = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<(typeof STAGES)[number], number>;
    let trades = 0;
    let measuring = false;
    const timed = async <T>(stage: (typeof STAGES)[number], f: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      const r = await f();
      if (measuring) spent[stage] += performance.now() - t;
      return r;
    };
    let stop = false;
    const lane = async (wallet: string): Promise<void> => {
      while (!stop) {
        await timed("key", () => store.findKeyByHash(keyHash));
        await timed("wallet", () => store.findWallet(apiKey.id, wallet));
        // The id the service gives a record (time-ordered), not the fixture's random one.
        const execution = newExecution(apiKey.id, wallet, {
          id: newId(),
          request: { action: "buy", amount: "0.01" },
        });
        const id = execution.id;
        await timed("insert", () => store.insertExecution(execution));
        await new Promise((r) => setTimeout(r, sendMs));
        await timed("update", () =>
          store.updateExecution(id, { status: "submitted", signatures: ["T"], timings: { sender: sendMs } }),
        );
        await timed("activity", () =>
          store.insertActivity({
            accountId: apiKey.id,
            at: new Date().toISOString(),
            keyId: apiKey.id,
            keyName: "bench",
            method: "POST",
            route: "/v1/trade",
            wallets: [wallet],
            executionId: id,
            status: 200,
            rule: null,
            ip: null,
          }),
        );
        if (measuring) trades += 1;
      }
    };
    const running = Array.from({ length: lanes }, (_, i) => lane(wallets[i % wallets.length]!));
    await new Promise((r) => setTimeout(r, 3000)); // warm-up: connections opened, statements prepared
    const before = pgDb !== undefined ? await readPgCounters(pgDb.url) : undefined;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    measuring = true;
    await new Promise((r) => setTimeout(r, durationMs));
    measuring = false;
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const backendsAtEnd = before !== undefined ? await readPgCounters(pgDb!.url) : undefined;
    stop = true;
    await Promise.all(running);
    const per = (ms: number) => (ms / Math.max(trades, 1)).toFixed(1);
    console.log(
      `${pgDb !== undefined ? "postgres" : "sqlite"}${argv.includes("--no-group") ? " (no group commit)" : ""}` +
        `${randomIds ? " (random ids)" : ""}: ` +
        `${trades} trades, ${((trades / wall) * 1000).toFixed(1)} trades/s, ${lanes} lanes, send ${sendMs} ms, pool ${numberFlag(argv, "pool", 10)}; ` +
        `bench process CPU ${((cpu.user + cpu.system) / 1000 / Math.max(trades, 1)).toFixed(3)} ms/trade`,
    );
    console.log(`mean ms per trade: ${STAGES.map((s) => `${s} ${per(spent[s])}`).join(", ")}`);
    if (pgDb !== undefined && before !== undefined) {
      await new Promise((r) => setTimeout(r, 700)); // the server publishes its counters a little after
      const after = await readPgCounters(pgDb.url);
      const d = (k: "commits" | "inserted" | "updated") => ((after[k] - before[k]) / trades).toFixed(2);
      console.log(
        `PostgreSQL per trade: commits ${d("commits")}, rows inserted ${d("inserted")}, updated ${d("updated")}; ` +
          `server cores busy ${((after.serverCpuNs - before.serverCpuNs) / (after.atNs - before.atNs)).toFixed(2)}; ` +
          `this database's backends ${(backendCpuNs(before, backendsAtEnd!) / 1e6 / trades).toFixed(3)} ms CPU per trade`,
      );
    }
  } finally {
    await store.close();
    await pgDb?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
