/**
 * Smoke form of `npm run bench`: the whole run (localnet and service processes, every scenario, the baseline
 * client, the micro-benchmark, the cashback check, the orders scenario) with tiny counts. It checks that the report is complete,
 * never a figure: speed is measured by the benchmark itself (docs/benchmarks.md), not asserted here.
 */
import { describe, expect, it } from "vitest";
import { parseBenchArgs, runBench } from "../../bench/run.js";
import { runOrdersBench } from "../../bench/orders-child.js";

describe("npm run bench (smoke)", () => {
  it("runs every part with tiny counts and prints the side-by-side report", async () => {
    const report = await runBench(parseBenchArgs(["--quick"]));
    for (const heading of [
      "### Service (its own process; localnet in another)",
      "### Baseline client",
      "### Side by side",
      "### Market stream (issue 21",
      "### Build + sign of one trade",
      "### Cashback check of 100 wallets",
      "### Targets (issue 10)",
      "### Orders (bench/orders.ts",
    ]) {
      expect(report).toContain(heading);
    }
    expect(report).toMatch(/\| trade request → event at a client, p50 \(ms\) \| [\d.]+ \|/);
    expect(report).toMatch(/\| events\/s delivered \| \d+ \|/);
    expect(report).toMatch(
      /\| client that never reads: close code \/ messages published until then \| 4008 \/ \d+ \|/,
    );
    expect(report).toMatch(/\| e2e p50 ms \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
    expect(report).toMatch(/\| curve buy, simulate off, confirm off \| \d+ \| 1 \|/);
    // Every scenario ran, and none of its trades failed (the last column counts errors).
    const rows = report.split("\n").filter((l) => /^\| (curve|swap) /.test(l));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.endsWith("| 0 |")).toBe(true);
  }, 300_000);

  it("runs the orders scenario on npm start's store (a SQLite file) when asked", () => {
    const report = runOrdersBench([
      "--orders-only",
      "--quick",
      "--orders-store",
      "file",
      "--orders-rounds",
      "1",
    ]);
    expect(report).toContain("Store: a SQLite file, every commit synced to disk");
    expect(report).toMatch(
      /\| trigger latency \(crossed by an outside wallet's trade .*\(ms, \d+ rounds, \d+ missed\) \|/,
    );
  }, 120_000);

  it("reads its options", () => {
    expect(parseBenchArgs([])).toMatchObject({
      latencyMs: 20,
      quick: false,
      profile: false,
      answerOnAcceptance: true,
    });
    expect(parseBenchArgs(["--relay-executes-first"]).answerOnAcceptance).toBe(false);
    expect(parseBenchArgs(["--latency-ms", "5", "--quick"])).toMatchObject({
      latencyMs: 5,
      trades: 4,
      streamClients: 5,
    });
    expect(parseBenchArgs([])).toMatchObject({
      streamClients: 1000,
      streamSeconds: 10,
      streamLatencyTrades: 200,
    });
    expect(() => parseBenchArgs(["--trades", "x"])).toThrow(/--trades/);
  });
});
