/** The benchmark's command line (`npm run bench -- --name value …`) and the cluster the environment names. */
import type { LocalnetInfo } from "../localnet/api.js";
import { DEFAULT_RELAY_TIP_LAMPORTS } from "../localnet/index.js";
import { countFlag } from "./flags.js";

/** Parsed command line. */
export interface BenchOptions {
  latencyMs: number;
  trades: number;
  warmup: number;
  concurrency: number;
  durationS: number;
  baselineTrades: number;
  micro: number;
  cashbackRepeats: number;
  slotMs: number;
  profile: boolean;
  quick: boolean;
  /**
   * The localnet answers a send on acceptance and executes it right after, as a real relay does (default);
   * `--relay-executes-first` restores the earlier runs' relay, which executed before answering.
   */
  answerOnAcceptance: boolean;
  /** bench/stream.ts: stream clients (× 10 subscriptions), fan-out seconds, latency trades. */
  streamClients: number;
  streamSeconds: number;
  streamLatencyTrades: number;
  /** The arguments as given, for the report's command line. */
  argv: readonly string[];
}

/** Reads `--name value` flags over the defaults (`--quick` shrinks every count). */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const quick = argv.includes("--quick");
  const num = (name: string, full: number, small: number): number =>
    countFlag(argv, name, quick ? small : full);
  return {
    latencyMs: num("latency-ms", 20, 20),
    trades: num("trades", 300, 4),
    warmup: num("warmup", 30, 1),
    concurrency: num("concurrency", 64, 4),
    // --quick (the smoke test checks the report is whole and no trade failed, never a figure): a quarter second of
    // each timed phase (parallel scenarios, churn, the stream's fan-out and ceiling) still runs tens of trades.
    durationS: num("duration-s", 15, 0.25),
    baselineTrades: num("baseline-trades", 100, 3),
    micro: num("micro", 3000, 20),
    cashbackRepeats: num("cashback-repeats", 20, 2),
    slotMs: num("slot-ms", 400, 400),
    profile: argv.includes("--profile"),
    quick,
    answerOnAcceptance: !argv.includes("--relay-executes-first"),
    streamClients: num("stream-clients", 1000, 5),
    streamSeconds: num("stream-seconds", 10, 0.25),
    streamLatencyTrades: num("stream-latency-trades", 200, 3),
    argv: [...argv],
  };
}

/** The cluster named by RPC_URL / RELAY_URL (a localnet started elsewhere, with its /admin routes), if any. */
export function clusterInfo(env: NodeJS.ProcessEnv): LocalnetInfo | null {
  if (!env.RPC_URL || !env.RELAY_URL) return null;
  const list = (v: string | undefined) => (v ?? "").split(",").filter((s) => s !== "");
  return {
    rpcUrl: env.RPC_URL,
    relayUrl: env.RELAY_URL,
    bundleRelayUrl: env.BUNDLE_RELAY_URL ?? `${env.RPC_URL}/bundle`,
    adminUrl: env.LOCALNET_ADMIN_URL ?? new URL("/admin", env.RPC_URL).toString(),
    wsUrl: "",
    relayTipAccounts: list(env.RELAY_TIP_ACCOUNTS),
    bundleTipAccounts: list(env.BUNDLE_TIP_ACCOUNTS),
    relayTipLamports: env.RELAY_TIP_LAMPORTS ?? String(DEFAULT_RELAY_TIP_LAMPORTS),
    pid: 0,
  };
}
