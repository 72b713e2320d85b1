/** Process entry: config, store, vault check, (sandbox) localnet, app, listen, graceful shutdown. */
import { exposureBanner, serviceUrl, startBanner } from "./runtime/banner.js";
import { exposures } from "./doctor/exposure-check.js";
import { keptDatabaseNotice, reportStart } from "./runtime/start-progress.js";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { startWebhookWorker } from "./domain/webhooks/worker.js";
import { buildApp } from "./http/app.js";
import { MarketHub } from "./domain/market/market-hub.js";
import { curveSupplyFrom, startMarketFeed } from "./domain/market/start-feed.js";
import { createStreamMetrics } from "./observability/stream-metrics.js";
import { createChain, type Chain } from "./chain/chain.js";
import { chainOptionsFromConfig, ConfigError, loadConfig, type Config } from "./config/config.js";
import { redisRateLimiter, storeRateLimiter } from "./http/hooks/rate-limiters.js";
import { redisRequestCounter } from "./http/hooks/request-counters.js";
import { ensurePrivateDir } from "./core/private-files.js";
import { DoctorRefusedError, doctorAtStart } from "./doctor/doctor-at-start.js";
import { routeProbeTargets } from "./doctor/routes-check.js";
import { racingFromConfig } from "./runtime/race-routes.js";
import { createLogger } from "./runtime/logger.js";
import { createMetrics } from "./observability/metrics.js";
import { relayMetricsObserver } from "./observability/relay-observer.js";
import { startServiceMaintenance } from "./runtime/maintenance.js";
import { openStore, sqliteTarget } from "./store/index.js";
import {
  createVault,
  loadMasterKey,
  MasterKeyError,
  parsePreviousMasterKeys,
  verifyVault,
} from "./vault/index.js";

const CHAIN_START_RETRY_MS = 2_000;

/** Starts the chain; on failure keeps retrying in the background. Returns the stop function. */
async function startChain(chain: Chain, logger: ReturnType<typeof createLogger>): Promise<() => void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = async (): Promise<void> => {
    try {
      await chain.start();
      logger.info("chain caches loaded");
    } catch (e) {
      if (stopped) return;
      logger.error(
        { err: { message: (e as Error).message } },
        "chain RPC unreachable; execution routes answer 503 until it answers (retrying)",
      );
      timer = setTimeout(() => void attempt(), CHAIN_START_RETRY_MS);
      timer.unref();
    }
  };
  await attempt();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    chain.stop();
  };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const c of cleanups.reverse())
      await c().catch((e: unknown) => logger.error({ err: e }, "close failed"));
  };
  try {
    // Before anything creates files in it: a directory made here is 0700; a pre-existing open one is reported.
    if (config.databaseUrl === undefined || config.sandbox) {
      const warning = ensurePrivateDir(config.dataDir);
      if (warning !== undefined) logger.warn({ dataDir: config.dataDir }, warning);
    }
    const master = loadMasterKey(config);
    if (master.generated)
      logger.info({ file: master.file, keyId: master.id }, "generated sandbox master key");
    // During a rotation (npm run rotate-keys) records under an older key stay readable through these.
    const previous = parsePreviousMasterKeys(config.previousMasterKeys);
    if (previous.length > 0)
      logger.info(
        { keyId: master.id, previousKeyIds: previous.map((k) => k.id) },
        "previous master keys loaded",
      );
    const vault = createVault(master, previous);
    const isPg = config.databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(config.databaseUrl);
    const dbPath = isPg ? "PostgreSQL" : sqliteTarget(config.databaseUrl, config.dataDir).path;
    // A SQLite file that exists before opening was kept from an earlier run (issue 22: the sandbox says so).
    const existingDb = !isPg && dbPath !== ":memory:" && existsSync(dbPath);
    // REDIS_URL: one client for the rate limiter, the per-key budgets and the event wake-ups' publications
    // (between processes over Redis pub/sub; PostgreSQL LISTEN/NOTIFY without it). Opened before the store, so
    // it is closed after it. ioredis is loaded only when it is used (issue 18, peak RSS: about 2 MB of heap).
    const redis =
      config.redisUrl !== undefined
        ? new (await import("ioredis")).Redis(config.redisUrl, {
            lazyConnect: false,
            maxRetriesPerRequest: 2,
          })
        : undefined;
    if (redis !== undefined) {
      // ioredis reconnects by itself; without a listener each failed attempt is printed as an unhandled error.
      // Only the message is logged: the URL (which may hold a password) is never part of it.
      redis.on("error", (e: Error) => logger.warn({ err: e.message }, "redis connection error; retrying"));
      cleanups.push(() => redis.quit());
    }
    const store = await openStore(config.databaseUrl, config.dataDir, {
      pgPoolSize: config.databasePoolSize,
      ...(redis !== undefined ? { redis } : {}),
    });
    cleanups.push(() => store.close());
    await verifyVault(vault, store);
    reportStart({ step: "database", path: dbPath, existing: isPg || existingDb });

    let appConfig = config;
    let installLookupTable: ((chain: Chain) => Promise<void>) | undefined;
    if (config.sandbox) {
      // Imported only in sandbox mode: production processes never load the localnet.
      const { startSandboxChain } = await import("./runtime/sandbox.js");
      const sandbox = await startSandboxChain(config, logger);
      cleanups.push(() => sandbox.localnet.close());
      reportStart({ step: "localnet", rpcUrl: sandbox.localnet.rpcUrl });
      if (existingDb) {
        // Issue 22: a restart keeps the database but not the chain; one line says so (stderr, like the banner).
        const notice = keptDatabaseNotice(dbPath);
        process.stderr.write(`${notice}\n`);
        reportStart({ step: "notice", message: notice });
      }
      appConfig = sandbox.config;
      installLookupTable = sandbox.installLookupTable;
    }
    const metrics = createMetrics();
    const chainOptions = chainOptionsFromConfig(appConfig);
    const chain: Chain = createChain({
      ...chainOptions,
      // Per-relay acceptance latency and failures go to /metrics; a failure of one relay of several is a warning.
      relayObserver: relayMetricsObserver(metrics, logger),
      // Refresh failures keep the last good values; they are worth a warning, not a crash.
      onCacheError: (e) =>
        logger.warn({ err: { message: (e as Error).message } }, "chain cache refresh failed"),
    });
    // Blockhash, launch configs and fee estimate are loaded before listening. An RPC that is down at start-up
    // does not stop the process (wallets and history still work): loading is retried in the background and
    // execution routes answer 503 until it succeeds.
    const stopChain = await startChain(chain, logger);
    cleanups.push(async () => stopChain());
    // The in-process localnet is always reachable, so the chain has started by now.
    if (installLookupTable !== undefined) await installLookupTable(chain);

    // The same checks as `npm run doctor`, before the first trade can be taken (DOCTOR_AT_START).
    await doctorAtStart(
      config.doctorAtStart,
      {
        cluster: config.cluster,
        chain: chainOptions,
        exposure: config.hardening,
        routes: routeProbeTargets(config),
      },
      logger,
    );

    cleanups.push(startServiceMaintenance({ config, store, chain, logger }));
    // Issue 20: webhook deliveries, leased in the database, so every process may send.
    cleanups.push(
      startWebhookWorker({
        store,
        vault,
        clock: () => new Date(),
        owner: randomUUID(),
        allowPrivate: config.sandbox || config.webhookAllowPrivate,
        // WEBHOOK_RETRY_DELAYS_MS / WEBHOOK_TIMEOUT_MS / WEBHOOK_LEASE_MARGIN_MS: shortened only by tests and soak runs.
        ...(config.webhookRetryDelaysMs !== undefined ? { delays: config.webhookRetryDelaysMs } : {}),
        timeoutMs: config.webhookTimeoutMs,
        leaseMarginMs: config.webhookLeaseMarginMs,
        onError: (e) =>
          logger.warn({ err: { message: (e as Error).message } }, "webhook delivery pass failed"),
      }),
    );

    let rateLimiter = storeRateLimiter(store);
    let requestCounter: ReturnType<typeof redisRequestCounter> | undefined;
    if (redis !== undefined) {
      rateLimiter = redisRateLimiter(redis);
      // Per-key budgets on Redis too (without it: PostgreSQL's table, or this process's memory on SQLite).
      requestCounter = redisRequestCounter(redis);
    }

    // Market data stream (issue 21): this process's own logs subscriptions feed GET /v1/stream.
    const marketHub = new MarketHub();
    const streamMetrics = createStreamMetrics(metrics.registry);
    const marketFeed = startMarketFeed({
      subscriptions: chain.subscriptions,
      rpc: chain.rpc,
      hub: marketHub,
      curveSupply: curveSupplyFrom(chain.caches),
      observer: {
        decoded: (type) => streamMetrics.decoded(type),
        unresolvedPool: () => streamMetrics.unresolvedPool(),
        error: (e) => logger.warn({ err: e }, "market event not published"),
      },
      onGap: (programId, result) =>
        "error" in result || !result.complete
          ? logger.warn(
              { programId, ...("error" in result ? { err: result.error } : result) },
              "market stream: logs subscription was down; the gap could not be re-read whole, events may be missed",
            )
          : logger.info(
              { programId, ...result },
              "market stream: logs subscription was down; the gap was re-read",
            ),
    });
    cleanups.push(async () => marketFeed.stop());

    const racing = racingFromConfig(appConfig);
    const app = await buildApp({
      config: appConfig,
      store,
      vault,
      logger,
      clock: () => new Date(),
      rateLimiter,
      ...(requestCounter !== undefined ? { requestCounter } : {}),
      chain,
      metrics,
      // The feed's decoded trades also refresh the warm venue state (issue 21).
      market: { hub: marketHub, feed: marketFeed.feed, metrics: streamMetrics },
      // ROUTES: raced trades (the sandbox filled in its localnet routes' tip accounts).
      ...(racing !== undefined ? { racing } : {}),
    });
    // app.close() stops accepting, lets in-flight requests finish, then the rest closes in reverse order.
    cleanups.push(() => app.close());
    await app.listen({ port: config.port, host: config.host });
    // Issue 22: one human-readable line (the JSON log stays on stdout for machines).
    process.stderr.write(`${startBanner(config.host, config.port)}\n`);
    // Issue 29: off the sandbox, the defaults left open, loudly (and once in the JSON log, for machines).
    const warnings = exposureBanner(config.cluster, config.hardening);
    if (warnings.length > 0) {
      process.stderr.write(`${warnings.join("\n")}\n`);
      logger.warn({ open: exposures(config.cluster, config.hardening) }, "open defaults off the sandbox");
    }
    reportStart({ step: "listening", url: serviceUrl(config.host, config.port) });

    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "shutting down");
      void closeAll().then(() => process.exit(0));
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  } catch (e) {
    if (e instanceof MasterKeyError || e instanceof ConfigError || e instanceof DoctorRefusedError) {
      process.stderr.write(`start-up failed: ${e.message}\n`);
    } else {
      logger.fatal({ err: e }, "start-up failed");
    }
    await closeAll();
    process.exit(1);
  }
}

void main();
