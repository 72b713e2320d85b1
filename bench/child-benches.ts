/** The benchmarks that run in a process of their own: the baseline client (official SDK) and the market stream. */
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../test/harness/index.js";
import type { BaselineJob, BaselineResult } from "./baseline-client.js";
import type { BenchOptions } from "./options.js";

/** One baseline run (bench/baseline-client.ts) in its own process: the result it prints. */
export function runBaseline(job: BaselineJob): BaselineResult {
  // Its own process, so nothing of the service (memoized PDAs, its signer) is loaded into it.
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "bench/baseline-client.ts", JSON.stringify(job)],
    {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(out.toString()) as BaselineResult;
}

/**
 * The market stream's figures (issue 21): bench/stream.ts in its own process (its CPU and RSS figures are of
 * that process alone); returns its markdown table.
 */
export function runStreamBench(o: BenchOptions): string {
  const args = [
    "--clients",
    o.streamClients,
    "--seconds",
    o.streamSeconds,
    "--latency-trades",
    o.streamLatencyTrades,
  ];
  const out = execFileSync(process.execPath, ["--import", "tsx", "bench/stream.ts", ...args.map(String)], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.toString().trim();
}
