/**
 * The hardening part of the configuration (issue 23): timeouts, per-key and per-IP budgets, the wallet cap,
 * the setup gate, the metrics token and the allowed Host names. Each variable is in docs/configuration.md.
 */
import { ConfigError, int, oneOf, raw } from "./parse.js";

/** How POST /v1/laser/setup is reachable: by anyone, only with SETUP_TOKEN, or not at all. */
export type SetupMode = "open" | "token" | "closed";
const SETUP_MODES: readonly SetupMode[] = ["open", "token", "closed"];

/** The request budget of one route class, per key (or per IP on public routes) per window. */
export interface RouteBudgets {
  /** GETs: wallets, executions, history. */
  readonly reads: number;
  /** Checks and quotes: cashback check, token quotes; every one reads accounts from the RPC. */
  readonly checks: number;
  /** Every route that signs and sends (trades, creates, bundles, claims, transfers) and wallet writes. */
  readonly executions: number;
  /** Unauthenticated routes (setup excluded: it keeps its one-per-5-s rule), per client IP. */
  readonly public: number;
  /** Requests refused at authorization (403 scope or frozen), per key; they spend no other class. */
  readonly refusals: number;
}

/** The budgets every key of one account shares (issue 29): a sub-key adds no requests to its account. */
export type AccountBudgets = Readonly<Record<"reads" | "checks" | "executions" | "refusals", number>>;

export interface HardeningSettings {
  /** Time to receive a whole request (headers and body); 0 = none. */
  readonly requestTimeoutMs: number;
  /** Socket inactivity timeout; 0 = none. */
  readonly connectionTimeoutMs: number;
  /** Window of the per-key budgets. */
  readonly rateWindowMs: number;
  /** Requests per window by route class; 0 in a class = unlimited. */
  readonly budgets: RouteBudgets;
  /** Requests per window by class for all the keys of one account together; 0 = unlimited. */
  readonly accountBudgets: AccountBudgets;
  /** Requests with an unknown x-api-key one client IP may make per minute before it gets 429s; 0 = no limit. */
  readonly authFailuresPerMinute: number;
  /** Most wallets one API key may hold (setup's wallet counted). */
  readonly maxWalletsPerKey: number;
  /** Most unrevoked sub-keys one account may hold (issue 29; the root key not counted). */
  readonly maxKeysPerAccount: number;
  readonly setupMode: SetupMode;
  /** With setupMode "token": the value the `x-setup-token` header must carry. */
  readonly setupToken: string | undefined;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
  /** When non-empty, a request whose Host (port removed) is not listed gets 421 (http/hosts.ts). */
  readonly allowedHosts: readonly string[];
}

const MIN_TOKEN_LENGTH = 16;

function token(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = raw(env, name);
  if (v !== undefined && v.length < MIN_TOKEN_LENGTH)
    throw new ConfigError(name, `must be at least ${MIN_TOKEN_LENGTH} characters`);
  return v;
}

function hostList(env: NodeJS.ProcessEnv): readonly string[] {
  const list = (raw(env, "ALLOWED_HOSTS") ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  for (const h of list) {
    if (!/^[a-z0-9.\-:[\]]+$/.test(h))
      throw new ConfigError("ALLOWED_HOSTS", `must list host names without scheme or path (got "${h}")`);
  }
  return Object.freeze(list);
}

/**
 * Parses the hardening variables. `longestWaitMs` is the longest a request may legitimately wait on the chain
 * (the confirmation timeouts): the default socket timeout stays above it.
 */
export function loadHardeningSettings(env: NodeJS.ProcessEnv, longestWaitMs: number): HardeningSettings {
  const setupMode = oneOf(env, "SETUP_MODE", SETUP_MODES, "open");
  const setupToken = token(env, "SETUP_TOKEN");
  if (setupMode === "token" && setupToken === undefined)
    throw new ConfigError("SETUP_TOKEN", "is required when SETUP_MODE=token");
  const budgets = Object.freeze({
    reads: int(env, "RATE_LIMIT_READS", 600, 0, 1_000_000),
    checks: int(env, "RATE_LIMIT_CHECKS", 60, 0, 1_000_000),
    executions: int(env, "RATE_LIMIT_EXECUTIONS", 300, 0, 1_000_000),
    public: int(env, "RATE_LIMIT_PUBLIC", 600, 0, 1_000_000),
    refusals: int(env, "RATE_LIMIT_REFUSALS", 60, 0, 1_000_000),
  });
  // An account's figure defaults to its key's: sub-keys then share what one key had (issue 29, finding 9).
  const account = (name: string, perKey: number): number =>
    int(env, `RATE_LIMIT_ACCOUNT_${name}`, perKey, 0, 1_000_000);
  return Object.freeze({
    requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 10_000, 0, 600_000),
    connectionTimeoutMs: int(env, "CONNECTION_TIMEOUT_MS", longestWaitMs + 60_000, 0, 3_600_000),
    rateWindowMs: int(env, "RATE_LIMIT_WINDOW_MS", 60_000, 1_000, 3_600_000),
    budgets,
    accountBudgets: Object.freeze({
      reads: account("READS", budgets.reads),
      checks: account("CHECKS", budgets.checks),
      executions: account("EXECUTIONS", budgets.executions),
      refusals: account("REFUSALS", budgets.refusals),
    }),
    authFailuresPerMinute: int(env, "AUTH_FAILURES_PER_MINUTE", 60, 0, 1_000_000),
    maxWalletsPerKey: int(env, "MAX_WALLETS_PER_KEY", 1000, 1, 1_000_000),
    maxKeysPerAccount: int(env, "MAX_KEYS_PER_ACCOUNT", 100, 1, 100_000),
    setupMode,
    setupToken,
    metricsToken: token(env, "METRICS_TOKEN"),
    allowedHosts: hostList(env),
  });
}
