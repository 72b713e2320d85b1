/**
 * Every environment variable of the service, parsed and validated once into a frozen `Config`.
 * Nothing else in the code base reads `process.env`. Each variable is documented in docs/configuration.md.
 */
import { PROGRAM_GENERATION_SETTINGS, type ProgramGenerationSetting } from "../chain/program-generation.js";
import { loadEventSettings, type EventSettings } from "./events.js";
import type { ChainOptions } from "../chain/chain.js";
import { addressList, ConfigError, int, oneOf, raw, url } from "./parse.js";

import { loadFeeSettings } from "./fees.js";
import { loadHardeningSettings, type HardeningSettings } from "./hardening.js";
import { loadStreamSettings, type StreamSettings } from "./streams.js";
import { loadOrderSettings, type OrderSettings } from "./orders.js";
import { loadRequestFeeSettings, type RequestFeeSettings } from "./request-fees.js";
import { loadRelaySettings, relayEndpointUrl, type RelayTarget } from "./relays.js";
import { loadRouteSettings, type RouteTarget } from "./routes.js";
import { loadWarmStateSettings, type WarmStateSettings } from "./warm-state.js";

export { ConfigError } from "./parse.js";
export type { RelayTarget } from "./relays.js";

export type DoctorAtStart = "warn" | "refuse" | "off";
const DOCTOR_MODES: readonly DoctorAtStart[] = ["warn", "refuse", "off"];
/** Launch-program generations the sandbox localnet can emulate (localnet/programs/generation.ts). */
export const LOCALNET_PROGRAM_GENERATIONS = ["2026-09", "2026-10"] as const;

export type Cluster = "localnet" | "mainnet" | "devnet" | "custom";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
/** Fastify's trustProxy: false, true (trust every hop), a hop count, or a list of addresses / CIDRs. */
export type TrustProxy = boolean | number | string[];

/** Every setting, parsed once (events and webhooks: EventSettings in config/events.ts). */
export interface Config extends EventSettings {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Undefined = SQLite file `lasertrade.sqlite` in dataDir; `postgres://…` = PostgreSQL; `sqlite:<path>` = SQLite. */
  readonly databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: PostgreSQL connections this process keeps at most (SQLite: unused). */
  readonly databasePoolSize: number;
  readonly masterKey: string | undefined;
  readonly masterKeyFile: string | undefined;
  /** PREVIOUS_MASTER_KEYS: older keys (same formats as MASTER_KEY) that may only decrypt, during a rotation. */
  readonly previousMasterKeys: readonly string[];
  readonly trustProxy: TrustProxy;
  readonly logLevel: LogLevel;
  readonly cluster: Cluster;
  /** True for CLUSTER=localnet: in-process localnet, generated master key. */
  readonly sandbox: boolean;
  readonly redisUrl: string | undefined;
  readonly localnetPort: number;
  readonly localnetSlotMs: number;
  /** Sandbox only: which launch-program generation the localnet emulates. */
  readonly localnetPrograms: (typeof LOCALNET_PROGRAM_GENERATIONS)[number];
  readonly rpcUrl: string | undefined;
  /** The relays every single transaction is sent to in parallel (RELAY presets or RELAY_URL); empty = sandbox fills in. */
  readonly relays: readonly RelayTarget[];
  /** ROUTES: the senders a raced trade sends one variant to, each with its own tip (empty: no racing). */
  readonly routes: readonly RouteTarget[];
  /** The first relay's URL (as configured, `{rpc}` unresolved); kept for the sandbox and older callers. */
  readonly relayUrl: string | undefined;
  readonly bundleRelayUrl: string | undefined;
  readonly relayTipAccounts: readonly string[];
  readonly relayTipLamports: bigint;
  /** Undefined = fetch from the bundle relay's getTipAccounts. */
  readonly bundleTipAccounts: readonly string[] | undefined;
  /** Address lookup tables for v0 messages (a create with its first buy needs one); sandbox installs its own. */
  readonly lookupTables: readonly string[];
  /** PROGRAM_GENERATION: the launch programs' generation to trade with; `auto` probes the cluster at start. */
  readonly programGeneration: ProgramGenerationSetting;
  readonly computeUnitPriceMicrolamports: bigint | "auto";
  /** With "auto": the percentile of recent fees of the written accounts (50, 75 or 90). */
  readonly computeUnitPricePercentile: number;
  /** Cap of the automatic price (micro-lamports per CU). */
  readonly computeUnitPriceMaxMicrolamports: bigint;
  /** Run the pre-flight checks (npm run doctor) at start: log failures (warn), exit on failure (refuse), or skip. */
  readonly doctorAtStart: DoctorAtStart;
  readonly computeUnitLimitTrade: number;
  readonly computeUnitLimitCreate: number;
  readonly computeUnitLimitTransfer: number;
  readonly computeUnitLimitClaim: number;
  readonly rpcTimeoutMs: number;
  readonly confirmTimeoutMs: number;
  readonly bundleConfirmTimeoutMs: number;
  /** How often open executions are reconciled with the chain (0 = never; the first pass runs at start). */
  readonly reconcileIntervalMs: number;
  /** Open executions updated more recently than this still belong to the request waiting on them. */
  readonly reconcileGraceMs: number;
  /** Warm venue state (issue 18): RPC_WS_URL, WATCH_MINTS, WATCHED_MINTS_MAX, STATE_MAX_AGE_SLOTS, WATCH_IDLE_MS. */
  readonly warmState: Readonly<WarmStateSettings>;
  /** Sent executions without a verdict (confirm off, wait ended) get their first chain look this soon. */
  readonly reconcileFirstLookMs: number;
  /** Timeouts, budgets, wallet cap, setup gate, metrics token, allowed hosts (config/hardening.ts). */
  readonly hardening: HardeningSettings;
  /** Issue 22: bounds of the per-request priority_fee and tip; STRICT_FIELDS (config/request-fees.ts). */
  readonly requestFees: RequestFeeSettings;
  /** Issue 29: connection caps of GET /v1/stream and GET /v1/events (config/streams.ts). */
  readonly streams: StreamSettings;
  /** Issue 31: open orders per key, claim lease, cross-process poll (config/orders.ts). */
  readonly orders: OrderSettings;
}

const CLUSTERS: readonly Cluster[] = ["localnet", "mainnet", "devnet", "custom"];
const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const v = raw(env, "TRUST_PROXY");
  if (v === undefined || v === "false") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const a of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a)) {
      throw new ConfigError(
        "TRUST_PROXY",
        `must be true, false, a hop count or a list of IPs/CIDRs (got "${a}")`,
      );
    }
  }
  return list;
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const v = raw(env, "DATABASE_URL");
  if (v === undefined) return undefined;
  if (v.startsWith("sqlite:")) return v;
  // Parsed here so a malformed PostgreSQL URL fails with its name only: a URL error thrown later carries the
  // whole string (password included) in its `input`, which the fatal start-up log would print.
  if (/^postgres(ql)?:\/\//.test(v)) return url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  throw new ConfigError("DATABASE_URL", "must start with postgres://, postgresql:// or sqlite:");
}

/** PostgreSQL connections per process unless DATABASE_POOL_SIZE says otherwise (docs/configuration.md). */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/** Parses and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // A chain endpoint without CLUSTER would silently run a sandbox with a generated master key: refuse it.
  if (raw(env, "CLUSTER") === undefined) {
    for (const name of ["RPC_URL", "RELAY", "RELAY_URL", "BUNDLE_RELAY_URL"]) {
      if (raw(env, name) !== undefined)
        throw new ConfigError(
          "CLUSTER",
          `must be set when ${name} is set (localnet, mainnet, devnet or custom)`,
        );
    }
  }
  const cluster: Cluster = oneOf(env, "CLUSTER", CLUSTERS, "localnet");
  const sandbox = cluster === "localnet";

  const logLevel = oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info");

  const masterKey = raw(env, "MASTER_KEY");
  const masterKeyFile = raw(env, "MASTER_KEY_FILE");
  if (masterKey !== undefined && masterKeyFile !== undefined) {
    throw new ConfigError("MASTER_KEY", "and MASTER_KEY_FILE must not both be set");
  }
  if (!sandbox && masterKey === undefined && masterKeyFile === undefined) {
    throw new ConfigError("MASTER_KEY", `or MASTER_KEY_FILE is required when CLUSTER=${cluster}`);
  }

  const fees = loadFeeSettings(env);
  const rpcUrl = url(env, "RPC_URL", ["http:", "https:"]);
  if (!sandbox && rpcUrl === undefined)
    throw new ConfigError("RPC_URL", `is required when CLUSTER=${cluster}`);
  const relays = loadRelaySettings(env, cluster, sandbox);

  const confirmTimeoutMs = int(env, "CONFIRM_TIMEOUT_MS", 30_000, 1, 3_600_000);
  const bundleConfirmTimeoutMs = int(env, "BUNDLE_CONFIRM_TIMEOUT_MS", 30_000, 1, 3_600_000);
  const config: Config = {
    port: int(env, "PORT", 8080, 0, 65535),
    // The sandbox (public setup, generated master key) listens on loopback unless told otherwise.
    host: raw(env, "HOST") ?? (sandbox ? "127.0.0.1" : "0.0.0.0"),
    dataDir: raw(env, "DATA_DIR") ?? "./data",
    databaseUrl: databaseUrl(env),
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", DEFAULT_DATABASE_POOL_SIZE, 1, 1000),
    masterKey,
    masterKeyFile,
    previousMasterKeys: Object.freeze(
      (raw(env, "PREVIOUS_MASTER_KEYS") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
    trustProxy: trustProxy(env),
    logLevel,
    cluster,
    sandbox,
    redisUrl: url(env, "REDIS_URL", ["redis:", "rediss:"]),
    localnetPort: int(env, "LOCALNET_PORT", 8899, 0, 65535),
    localnetSlotMs: int(env, "LOCALNET_SLOT_MS", 400, 0, 60_000),
    localnetPrograms: oneOf(env, "LOCALNET_PROGRAMS", LOCALNET_PROGRAM_GENERATIONS, "2026-10"),
    rpcUrl,
    relays: relays.relays,
    routes: Object.freeze(loadRouteSettings(env, cluster, sandbox)),
    relayUrl: relays.relays[0]?.url,
    bundleRelayUrl: relays.bundleRelayUrl,
    relayTipAccounts: relays.tipAccounts,
    relayTipLamports: relays.tipLamports,
    bundleTipAccounts: relays.bundleTipAccounts,
    lookupTables: Object.freeze(addressList(env, "LOOKUP_TABLES") ?? []),
    programGeneration: oneOf(env, "PROGRAM_GENERATION", PROGRAM_GENERATION_SETTINGS, "auto"),
    computeUnitPriceMicrolamports: fees.price,
    computeUnitPricePercentile: fees.percentile,
    computeUnitPriceMaxMicrolamports: fees.max,
    doctorAtStart: oneOf(env, "DOCTOR_AT_START", DOCTOR_MODES, "warn"),
    computeUnitLimitTrade: int(env, "COMPUTE_UNIT_LIMIT_TRADE", 250_000, 1, 1_400_000),
    computeUnitLimitCreate: int(env, "COMPUTE_UNIT_LIMIT_CREATE", 500_000, 1, 1_400_000),
    computeUnitLimitTransfer: int(env, "COMPUTE_UNIT_LIMIT_TRANSFER", 50_000, 1, 1_400_000),
    computeUnitLimitClaim: int(env, "COMPUTE_UNIT_LIMIT_CLAIM", 100_000, 1, 1_400_000),
    rpcTimeoutMs: int(env, "RPC_TIMEOUT_MS", 5000, 1, 600_000),
    confirmTimeoutMs,
    bundleConfirmTimeoutMs,
    reconcileIntervalMs: int(env, "RECONCILE_INTERVAL_MS", 30_000, 0, 86_400_000),
    // Default: the longest a request waits on its own submission plus 30 s, so a running request's record
    // is never touched.
    reconcileGraceMs: int(
      env,
      "RECONCILE_GRACE_MS",
      Math.max(confirmTimeoutMs, bundleConfirmTimeoutMs) + 30_000,
      0,
      86_400_000,
    ),
    warmState: Object.freeze(loadWarmStateSettings(env)),
    reconcileFirstLookMs: int(env, "RECONCILE_FIRST_LOOK_MS", 2000, 1, 86_400_000),
    ...loadEventSettings(env),
    hardening: loadHardeningSettings(env, Math.max(confirmTimeoutMs, bundleConfirmTimeoutMs)),
    requestFees: loadRequestFeeSettings(env),
    streams: loadStreamSettings(env),
    orders: loadOrderSettings(env),
  };
  return Object.freeze(config);
}

/**
 * The chain layer's options from the configuration. Call it with a config whose chain URLs are set (in
 * sandbox mode: the config `startSandboxChain` filled in); throws ConfigError naming a missing one.
 */
export function chainOptionsFromConfig(config: Config): ChainOptions {
  const need = <T>(value: T | undefined, variable: string): T => {
    if (value === undefined) throw new ConfigError(variable, "is required to reach the chain");
    return value;
  };
  return {
    rpcUrl: need(config.rpcUrl, "RPC_URL"),
    ...(config.warmState.rpcWsUrl !== undefined ? { rpcWsUrl: config.warmState.rpcWsUrl } : {}),
    relayUrl: relayEndpointUrl(need(config.relays[0], "RELAY_URL"), need(config.rpcUrl, "RPC_URL")),
    relays: config.relays.map((r) => ({
      name: r.name,
      url: relayEndpointUrl(r, need(config.rpcUrl, "RPC_URL")),
      headers: r.auth().headers,
    })),
    bundleRelayUrl: need(config.bundleRelayUrl, "BUNDLE_RELAY_URL"),
    relayTipAccounts: config.relayTipAccounts,
    relayTipLamports: config.relayTipLamports,
    ...(config.bundleTipAccounts !== undefined ? { bundleTipAccounts: config.bundleTipAccounts } : {}),
    computeUnitPrice:
      config.computeUnitPriceMicrolamports === "auto"
        ? {
            mode: "auto",
            percentile: config.computeUnitPricePercentile,
            maxMicroLamports: config.computeUnitPriceMaxMicrolamports,
          }
        : { mode: "fixed", microLamports: config.computeUnitPriceMicrolamports },
    computeUnitLimits: {
      trade: config.computeUnitLimitTrade,
      create: config.computeUnitLimitCreate,
      transfer: config.computeUnitLimitTransfer,
      claim: config.computeUnitLimitClaim,
    },
    rpcTimeoutMs: config.rpcTimeoutMs,
    confirmTimeoutMs: config.confirmTimeoutMs,
    bundleConfirmTimeoutMs: config.bundleConfirmTimeoutMs,
    lookupTables: config.lookupTables,
    programGeneration: config.programGeneration,
  };
}
