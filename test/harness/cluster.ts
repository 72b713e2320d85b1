/**
 * `startCluster`: a localnet process, a fresh database and N service processes on it — the shape of a
 * multi-process deployment, for multi-process tests, the soak suite and the benchmark.
 */
import { freshPgDatabase, freshSqliteDatabase, type TestDatabase } from "./database.js";
import { setupKey, type TestKey } from "./api-client.js";
import { startLocalnetProcess, type LocalnetProcess } from "./localnet-process.js";
import {
  randomMasterKey,
  startService,
  type ServiceOptions,
  type ServiceProcess,
} from "./service-process.js";

/** Options of `startCluster`. */
export interface ClusterOptions {
  /** Service processes (default 1). */
  processes?: number;
  /**
   * "sqlite" (default): a file in a temporary directory; "postgres": a fresh database on `pgUrl`
   * (default TEST_DATABASE_URL), dropped on close; or an existing `{ url }` (left as it is).
   */
  database?: "sqlite" | "postgres" | { url: string };
  pgUrl?: string;
  redisUrl?: string;
  /** Extra environment of every service process (RECONCILE_INTERVAL_MS, CONFIRM_TIMEOUT_MS, …). */
  serviceEnv?: Record<string, string>;
  /** Localnet slot length (default 400 ms). */
  slotMs?: number;
  /** Node flags of the service processes (e.g. --cpu-prof). */
  serviceNodeArgs?: string[];
  /** Write service i's output to `${serviceLogPrefix}${i}.log`. */
  serviceLogPrefix?: string;
  /** Run the compiled build (`node dist/main.js`; `npm run build` first) instead of tsx. */
  compiled?: boolean;
}

/** A running cluster. */
export interface Cluster {
  localnet: LocalnetProcess;
  services: ServiceProcess[];
  database: { url: string; kind: "postgres" | "sqlite" };
  masterKey: string;
  /** A new API key with a default wallet funded with `sol` SOL (default 10), through service `via` (default 0). */
  setupKey(options?: { sol?: bigint; via?: number }): Promise<TestKey>;
  /** Starts one more service process on the same database and localnet (e.g. after a kill), optionally on `port`. */
  addService(options?: { port?: number; env?: Record<string, string> }): Promise<ServiceProcess>;
  /** Stops every service (SIGTERM), the localnet, and drops the database when the cluster made it. */
  close(): Promise<void>;
}

/** Starts localnet, database and services; on failure stops what it started. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const started: { stop(): Promise<void> }[] = [];
  let db: TestDatabase | null = null;
  const cleanup = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    await db?.drop().catch(() => {});
  };
  try {
    const spec = options.database ?? "sqlite";
    let database: { url: string; kind: "postgres" | "sqlite" };
    if (spec === "sqlite") database = db = freshSqliteDatabase();
    else if (spec === "postgres") {
      const pgUrl = options.pgUrl ?? process.env.TEST_DATABASE_URL;
      if (!pgUrl) throw new Error("database 'postgres' needs pgUrl or TEST_DATABASE_URL");
      database = db = await freshPgDatabase(pgUrl, "cluster");
    } else database = { url: spec.url, kind: /^postgres/.test(spec.url) ? "postgres" : "sqlite" };

    const localnet = await startLocalnetProcess({
      ...(options.slotMs !== undefined ? { slotMs: options.slotMs } : {}),
    });
    started.push(localnet);
    const masterKey = randomMasterKey();
    const services: ServiceProcess[] = [];
    const base = (
      i: number,
      extra: { port?: number; env?: Record<string, string> } = {},
    ): ServiceOptions => ({
      localnet: localnet.info,
      databaseUrl: database.url,
      masterKey,
      ...(options.redisUrl !== undefined ? { redisUrl: options.redisUrl } : {}),
      ...(extra.port !== undefined ? { port: extra.port } : {}),
      env: { ...options.serviceEnv, ...extra.env },
      ...(options.serviceNodeArgs !== undefined ? { nodeArgs: options.serviceNodeArgs } : {}),
      ...(options.serviceLogPrefix !== undefined ? { logFile: `${options.serviceLogPrefix}${i}.log` } : {}),
      ...(options.compiled === true ? { compiled: true } : {}),
    });
    // The first process migrates the database alone; the others start together after it.
    const first = await startService(base(0));
    services.push(first);
    started.push(first);
    const rest = await Promise.all(
      Array.from({ length: (options.processes ?? 1) - 1 }, (_, i) => startService(base(i + 1))),
    );
    for (const s of rest) {
      services.push(s);
      started.push(s);
    }
    return {
      localnet,
      services,
      database,
      masterKey,
      setupKey: (o = {}) =>
        setupKey(services[o.via ?? 0]!.baseUrl, localnet, o.sol !== undefined ? { sol: o.sol } : {}),
      async addService(extra = {}) {
        const s = await startService(base(services.length, extra));
        services.push(s);
        started.push(s);
        return s;
      },
      close: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
