/** Test harness: the real app on SQLite :memory: (or PostgreSQL) with a fixed test vault, in one call. */
import type { ExecutionKindEntry } from "../../src/domain/execution/kind.js";
import { Keypair } from "@solana/web3.js";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { buildApp, type AppDeps } from "../../src/http/app.js";
import type { Chain } from "../../src/chain/chain.js";
import { loadConfig, type Config } from "../../src/config/config.js";
import { storeRateLimiter, type RateLimiter } from "../../src/http/hooks/rate-limiters.js";
import type { Metrics } from "../../src/observability/metrics.js";
import type { RequestCounter } from "../../src/http/hooks/request-counters.js";
import { installResponseCheck } from "./openapi-validate.js";
import { sharedSerializers } from "./shared-serializers.js";
import { openStore, type Store } from "../../src/store/index.js";
import { createVault, parseMasterKey, type Vault } from "../../src/vault/index.js";

export const TEST_MASTER_KEY_HEX = "11".repeat(32);

/** Stores a new API key whose one wallet (a fresh keypair) is encrypted by `vault`. */
export async function storeKeyWithWalletOf(
  store: Pick<Store, "createApiKeyWithWallet">,
  vault: Vault,
): Promise<void> {
  const kp = Keypair.generate();
  const pk = kp.publicKey.toBase58();
  await store.createApiKeyWithWallet("h", {
    publicKey: pk,
    createdAt: "2026-01-01T00:00:00.000",
    ...vault.encryptSecret(kp.secretKey, pk),
  });
}

/** The vault every test app uses unless told otherwise. */
export function testVault(hex = TEST_MASTER_KEY_HEX): Vault {
  return createVault(parseMasterKey(hex, "test key"));
}

export interface TestAppOptions {
  /** The execution kinds served (default: the service's list). */
  kinds?: readonly ExecutionKindEntry[];
  /** Environment for loadConfig (default: sandbox defaults). */
  env?: NodeJS.ProcessEnv;
  /** Default sqlite::memory:. */
  databaseUrl?: string;
  pgSchema?: string;
  /** Reuse an open store (e.g. two apps on one database); it is then not closed by `close`. */
  store?: Store;
  vault?: Vault;
  clock?: () => Date;
  rateLimiter?: RateLimiter;
  logger?: FastifyBaseLogger;
  chain?: Chain;
  metrics?: Metrics;
  /** The market stream's hub and limits (GET /v1/stream). */
  market?: AppDeps["market"];
  /** Counters of the per-key budgets (issue 23); default: the app's own choice for the store. */
  requestCounter?: RequestCounter;
  /** The console's built files (GET /console); default dist/console. */
  consoleDir?: string | null;
  /** Raced trades over these routes (GET /v1/routes lists them). */
  racing?: AppDeps["racing"];
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  vault: Vault;
  config: Config;
  /** Runs POST /v1/laser/setup from a fresh client IP; returns the new key and its default wallet. */
  setup(): Promise<{ apiKey: string; wallet: string; walletSecret: string }>;
  close(): Promise<void>;
}

let ipCounter = 0;

/** A fresh client address per call so the setup rate limit never couples tests. */
export function nextTestIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** Builds the app with its store and vault; call `close` in afterEach/afterAll. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig(options.env ?? {});
  const ownStore = options.store === undefined;
  const store =
    options.store ??
    (await openStore(options.databaseUrl ?? "sqlite::memory:", config.dataDir, {
      ...(options.pgSchema !== undefined ? { pgSchema: options.pgSchema } : {}),
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
    }));
  const vault = options.vault ?? testVault();
  const app = await buildApp({
    config,
    store,
    vault,
    clock: options.clock ?? (() => new Date()),
    rateLimiter: options.rateLimiter ?? storeRateLimiter(store),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.chain !== undefined ? { chain: options.chain } : {}),
    ...(options.metrics !== undefined ? { metrics: options.metrics } : {}),
    ...(options.market !== undefined ? { market: options.market } : {}),
    ...(options.requestCounter !== undefined ? { requestCounter: options.requestCounter } : {}),
    ...(options.consoleDir !== undefined ? { consoleDir: options.consoleDir } : {}),
    ...(options.kinds !== undefined ? { kinds: options.kinds } : {}),
    ...(options.racing !== undefined ? { racing: options.racing } : {}),
    // Response serializers built once per schema for all the apps of a test file (shared-serializers.ts).
    schemaController: sharedSerializers,
  });
  // Every answer of a test app is checked against the OpenAPI document (openapi-validate.ts).
  installResponseCheck(app);
  await app.ready();
  return {
    app,
    store,
    vault,
    config,
    async setup() {
      const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
      if (res.statusCode !== 200) throw new Error(`setup failed: ${res.statusCode} ${res.body}`);
      const body = res.json<{ api_key: string; wallet_public_key: string; wallet_private_key: string }>();
      return { apiKey: body.api_key, wallet: body.wallet_public_key, walletSecret: body.wallet_private_key };
    },
    async close() {
      await app.close();
      if (ownStore) await store.close();
    },
  };
}
