/** The benchmarks that run in a process of their own: the baseline client (official SDK) and the market stream. */
import { execFileSync } from "node:child_process";
import type { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import type { LocalnetInfo } from "../localnet/api.js";
import { REPO_ROOT } from "../test/harness/index.js";
import type { BaselineJob, BaselineResult } from "./baseline-client.js";
import type { BenchOptions } from "./options.js";

/**
 * The baseline's job as the bench runs it: buys of 0.001 SOL of `mint` by `wallet` through the localnet's
 * relay, with at most 20 warm-up trades.
 */
export function baselineJob(
  info: LocalnetInfo,
  wallet: Keypair,
  mint: string,
  run: { trades: number; warmup: number; mode: BaselineJob["mode"] },
): BaselineJob {
  return {
    rpcUrl: info.rpcUrl,
    relayUrl: info.relayUrl,
    tipAccounts: info.relayTipAccounts,
    tipLamports: info.relayTipLamports,
    secretKey: bs58.encode(wallet.secretKey),
    mint,
    lamports: "1000000",
    trades: run.trades,
    warmup: Math.min(run.warmup, 20),
    mode: run.mode,
  };
}

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
