/**
 * Service processes: the real `src/main.ts` (through test/harness/service-entry.ts) in its own process,
 * configured only through its environment, pointed at a localnet started by the harness.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LocalnetInfo } from "../../localnet/api.js";
import { compiledBuildIsFresh, spawnTs, startScript, type Child, type SpawnTsOptions } from "./child.js";

/** A running service process. */
export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly port: number;
  readonly child: Child;
  readonly pid: number;
  /** SIGTERM (graceful: in-flight requests finish), SIGKILL after `graceMs` (default 15 s). */
  stop(graceMs?: number): Promise<void>;
  /** kill -9: no shutdown code runs. */
  kill(): Promise<void>;
}

/** Options of `startService`. */
export interface ServiceOptions extends Pick<SpawnTsOptions, "nodeArgs" | "logFile"> {
  localnet: LocalnetInfo;
  /** DATABASE_URL (postgres://… or sqlite:<file>). */
  databaseUrl: string;
  /** MASTER_KEY (64 hex); every process on one database must share it. */
  masterKey: string;
  redisUrl?: string;
  /** Fixed port (e.g. to restart on the same address); default a free one. */
  port?: number;
  /** More variables, overriding the harness defaults (LOG_LEVEL, CONFIRM_TIMEOUT_MS, RECONCILE_*, …). */
  env?: Record<string, string>;
  /** How long to wait for /healthz. Default 90 s (a cold start on a busy 2-core machine is slow). */
  startTimeoutMs?: number;
  /** Start the compiled build (`node dist/main.js`, as `npm start` does); default: when dist/ is fresh. */
  compiled?: boolean;
}

/** A fresh random master key (64 hex characters). */
export function randomMasterKey(): string {
  return randomBytes(32).toString("hex");
}

/** A TCP port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The environment a service process gets: CLUSTER=custom against the localnet, quiet logs, TRUST_PROXY for setupKey. */
export function serviceEnv(o: ServiceOptions, port: number, dataDir: string): Record<string, string> {
  return {
    CLUSTER: "custom",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: o.databaseUrl,
    MASTER_KEY: o.masterKey,
    RPC_URL: o.localnet.rpcUrl,
    RELAY_URL: o.localnet.relayUrl,
    BUNDLE_RELAY_URL: o.localnet.bundleRelayUrl,
    RELAY_TIP_ACCOUNTS: o.localnet.relayTipAccounts.join(","),
    RELAY_TIP_LAMPORTS: o.localnet.relayTipLamports,
    BUNDLE_TIP_ACCOUNTS: o.localnet.bundleTipAccounts.join(","),
    COMPUTE_UNIT_PRICE_MICROLAMPORTS: "10000",
    TRUST_PROXY: "true",
    LOG_LEVEL: "warn",
    // Load scenarios (soak, bench) measure the service, not its per-key budgets (issue 23): budgets off.
    RATE_LIMIT_READS: "0",
    RATE_LIMIT_CHECKS: "0",
    RATE_LIMIT_EXECUTIONS: "0",
    RATE_LIMIT_PUBLIC: "0",
    ...(o.redisUrl !== undefined ? { REDIS_URL: o.redisUrl } : {}),
    ...o.env,
  };
}

async function waitHealthy(baseUrl: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.hasExited()) throw new Error(`service exited before it listened:\n${child.outputTail()}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not answer /healthz in ${timeoutMs} ms:\n${child.outputTail()}`);
}

/** Starts one service process and resolves once /healthz answers. */
export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  // A port from freePort() is free when probed, but an outgoing connection of a parallel test can take
  // it (ephemeral range) before the child listens: a harness-chosen port is retried on EADDRINUSE.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOn(options, options.port ?? (await freePort()));
    } catch (e) {
      const lostPort = options.port === undefined && e instanceof Error && e.message.includes("EADDRINUSE");
      if (!lostPort || attempt >= 5) throw e;
    }
  }
}

async function startServiceOn(options: ServiceOptions, port: number): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "lt-harness-svc-"));
  const compiled = options.compiled ?? compiledBuildIsFresh();
  // The compiled service starts as `npm start` starts it: its variables under the test's own (which win).
  const start = compiled ? startScript() : { env: {}, flags: [] };
  const child = spawnTs(compiled ? "dist/main.js" : "test/harness/service-entry.ts", [], {
    env: { ...start.env, ...serviceEnv(options, port, dataDir) },
    compiled,
    ...(compiled ? { compiledFlags: start.flags } : {}),
    nodeArgs: [
      ...(compiled ? ["--import", "./test/harness/stdin-guard.mjs"] : []),
      ...(options.nodeArgs ?? []),
    ],
    ...(options.logFile !== undefined ? { logFile: options.logFile } : {}),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(baseUrl, child, options.startTimeoutMs ?? 90_000);
  } catch (e) {
    await child.stop("SIGKILL");
    throw e;
  }
  return {
    baseUrl,
    port,
    child,
    pid: child.pid,
    stop: (graceMs = 15_000) => child.stop("SIGTERM", graceMs),
    kill: () => child.stop("SIGKILL"),
  };
}
