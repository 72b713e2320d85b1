/**
 * End-to-end harness: the real app (SQLite :memory:, test vault) wired to a real chain layer talking over
 * HTTP to an in-process localnet (port 0, 50 ms slots, short confirmation waits).
 *
 * Usage:
 *   const e2e = useE2e();   // use-e2e.ts; or startE2e() in beforeAll, `await e2e.close()` in afterAll
 *   const { apiKey, wallet } = await e2e.setup();       // new key; its default wallet holds 10 SOL
 *   const other = await e2e.fundedWallet(apiKey, 2n);   // another wallet of that key, 2 SOL
 *   const { mint } = e2e.localnet.admin.createToken();  // a live bonding curve
 *   const res = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.1" });
 *   e2e.localnet.admin.setFaults({ ... });  e2e.roundTrips();   // faults and per-method call counts
 * `beforeEach(() => e2e.reset())` clears faults and stats (useE2e registers it). Pass options to `startE2e` to change timeouts
 * (`chain` overrides go to localnetChainOptions) or the localnet (`localnet` options).
 */
import type { ExecutionKindEntry } from "../../src/domain/execution/kind.js";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from "fastify";
import {
  parseProgramGeneration,
  startLocalnet,
  type LocalnetHandle,
  type LocalnetOptions,
} from "../../localnet/index.js";
import { createChain, type Chain, type ChainOptions } from "../../src/chain/chain.js";
import { localnetChainOptions } from "../../src/chain/localnet-options.js";
import { LAMPORTS_PER_SOL } from "../../src/core/amounts.js";
import { MarketHub } from "../../src/domain/market/market-hub.js";
import { startMarketFeed } from "../../src/domain/market/start-feed.js";
import { createLookupTableAddress, installCreateLookupTable } from "../../src/domain/create/lookup-table.js";
import { SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM } from "../../src/domain/sol/reserve.js";
import { associatedTokenAddress, LAUNCH_GLOBAL } from "../../src/launch/programs.js";
import type { FetchLike } from "../../src/chain/json-rpc.js";
import type { RateLimiter } from "../../src/http/hooks/rate-limiters.js";
import type { Store } from "../../src/store/index.js";
import type { Vault } from "../../src/vault/index.js";
import { buildTestApp } from "./app.js";
import type { DecodedEventSource } from "../../src/domain/watch/setup.js";
import type { RouteStats } from "../../src/chain/landing/route-stats.js";
import type { TradeRacing } from "../../src/domain/trade/raced-trade.js";
import { createRelayClient } from "../../src/chain/relay-client.js";

export interface E2eOptions {
  localnet?: LocalnetOptions;
  chain?: Partial<ChainOptions>;
  /** The app's logger (default: none), e.g. one that captures every line for a secrets scan. */
  logger?: FastifyBaseLogger;
  /** The app's database (default sqlite::memory:) and, for PostgreSQL, its schema. */
  databaseUrl?: string;
  pgSchema?: string;
  /**
   * The warm venue state (issue 18; on by default in the service). Off here unless asked for: the suites written
   * for read-per-trade change chain state through the operator and trade in the same tick, before the
   * subscription's notification can arrive.
   */
  warm?: boolean;
  /**
   * The market feed (issue 21) on the chain's subscriptions, as main.ts runs it: its decoded trades publish to
   * GET /v1/stream and refresh the warm state. Off unless asked for (it costs two logs subscriptions).
   */
  market?: boolean;
  /** The setup limiter (default: the store's one call per IP every 5 s). */
  rateLimiter?: RateLimiter;
  /** More environment for the app's configuration (e.g. budgets). */
  env?: Record<string, string>;
  /** The app's clock (default: the system's). */
  clock?: () => Date;
  /** The console's built files (default dist/console). */
  consoleDir?: string;
  /** The execution kinds served (default: the service's list). */
  kinds?: readonly ExecutionKindEntry[];
  /** Raced trades over the localnet's four landing routes (ROUTES), with these figures. */
  routes?: { stats: RouteStats; confirmTimeoutMs?: number };
}

export interface E2e {
  localnet: LocalnetHandle;
  chain: Chain;
  app: FastifyInstance;
  store: Store;
  vault: Vault;
  /** The market feed when started (`market: true`), for tests that wait on its decoded events. */
  feed?: DecodedEventSource;
  /** web3.js Connection to the localnet, for balance checks in tests. */
  connection: Connection;
  /** A new API key whose default wallet is funded with `sol` SOL (default 10; 0 = unfunded); its secret too. */
  setup(opts?: { sol?: bigint }): Promise<{ apiKey: string; wallet: string; walletSecret: string }>;
  /** Creates another wallet of the key (POST /v1/wallets) and funds it with `sol` SOL. */
  fundedWallet(apiKey: string, sol?: bigint): Promise<string>;
  /** POST with the key and a JSON body. */
  post(apiKey: string, url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** GET with the key. */
  get(apiKey: string, url: string): Promise<LightMyRequestResponse>;
  /** Lamports of an address. */
  balance(address: string): Promise<bigint>;
  /** Token balance of `owner`'s associated account for `mint` (0 when it does not exist). */
  tokenBalance(owner: string, mint: string): Promise<bigint>;
  /** Non-zero localnet call counters since the last reset, by "<endpoint>.<method>". */
  roundTrips(): Record<string, number>;
  /** Clears faults and counters. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts localnet + chain + app; resolves when the chain caches are loaded. */
export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  const localnet = await startLocalnet({
    port: 0,
    slotMs: 50,
    programs: parseProgramGeneration(process.env.LOCALNET_PROGRAMS),
    ...options.localnet,
  });
  // The caches refresh in the background; their calls carry a tag the localnet counts apart, so that
  // roundTrips() reports only what a request itself cost, however the refresh timer falls against it.
  const innerFetch = options.chain?.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const taggingFetch: FetchLike = (url, init) =>
    innerFetch(
      url,
      isBackgroundCall(init.body) ? { ...init, headers: { ...init.headers, ...BACKGROUND } } : init,
    );
  const chain = createChain(
    localnetChainOptions(localnet, {
      confirmTimeoutMs: 2_000,
      confirmPollMs: 50,
      rebroadcastMs: 300,
      bundleConfirmTimeoutMs: 5_000,
      bundlePollMs: 100,
      cacheRefreshMs: 500,
      ...options.chain,
      fetch: taggingFetch,
    }),
  );
  await chain.start();
  const market = options.market === true ? await startFeed(chain) : undefined;
  const t = await buildTestApp({
    chain,
    env: { ...(options.warm === true ? {} : { WATCHED_MINTS_MAX: "0" }), ...options.env },
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
    ...(market !== undefined ? { market: { hub: market.hub, feed: market.feed } } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.pgSchema !== undefined ? { pgSchema: options.pgSchema } : {}),
    ...(options.rateLimiter !== undefined ? { rateLimiter: options.rateLimiter } : {}),
    ...(options.consoleDir !== undefined ? { consoleDir: options.consoleDir } : {}),
    ...(options.kinds !== undefined ? { kinds: options.kinds } : {}),
    ...(options.routes !== undefined ? { racing: localnetRacing(localnet, options.routes) } : {}),
  });
  const connection = new Connection(localnet.rpcUrl, "confirmed");

  const inject = (apiKey: string, method: "GET" | "POST", url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { "x-api-key": apiKey, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const fund = (address: string, sol: bigint) => {
    if (sol > 0n) localnet.admin.fund(address, sol * LAMPORTS_PER_SOL);
  };

  return {
    localnet,
    chain,
    app: t.app,
    store: t.store,
    vault: t.vault,
    ...(market !== undefined ? { feed: market.feed } : {}),
    connection,
    async setup(opts = {}) {
      const { apiKey, wallet, walletSecret } = await t.setup();
      fund(wallet, opts.sol ?? 10n);
      return { apiKey, wallet, walletSecret };
    },
    async fundedWallet(apiKey, sol = 10n) {
      const res = await inject(apiKey, "POST", "/v1/wallets", {});
      if (res.statusCode !== 200) throw new Error(`create wallet failed: ${res.statusCode} ${res.body}`);
      const wallet = res.json<{ public_key: string }>().public_key;
      fund(wallet, sol);
      return wallet;
    },
    post: (apiKey, url, body) => inject(apiKey, "POST", url, body ?? {}),
    get: (apiKey, url) => inject(apiKey, "GET", url),
    async balance(address) {
      return BigInt(await connection.getBalance(new PublicKey(address), "confirmed"));
    },
    async tokenBalance(owner, mint) {
      const mintKey = new PublicKey(mint);
      const info = await connection.getAccountInfo(mintKey, "confirmed");
      if (info === null) throw new Error(`mint ${mint} not found`);
      const ata = associatedTokenAddress(new PublicKey(owner), mintKey, info.owner);
      const acc = await connection.getTokenAccountBalance(ata, "confirmed").catch(() => null);
      return acc === null ? 0n : BigInt(acc.value.amount);
    },
    roundTrips() {
      return Object.fromEntries(
        Object.entries(localnet.admin.stats()).filter(([k, n]) => n > 0 && !k.startsWith("background:")),
      );
    },
    reset() {
      localnet.admin.clearFaults();
      localnet.admin.resetStats();
    },
    async close() {
      market?.stop();
      chain.stop();
      await t.close();
      await localnet.close();
    },
  };
}

/** The market feed on the chain's own subscription layer (as main.ts starts it), once its subscriptions are live. */
async function startFeed(chain: Chain) {
  const hub = new MarketHub();
  const started = startMarketFeed({ subscriptions: chain.subscriptions, rpc: chain.rpc, hub });
  await started.ready;
  return { hub, feed: started.feed, stop: started.stop };
}

// Trade helpers shared by test/e2e/trade-*.test.ts.

/** A trade request body as the tests send it (any JSON the spec allows, plus deliberate mistakes). */
export type TradeBody = Record<string, unknown>;

/** The trade response fields the tests read. */
export interface TradeResult {
  wallet: string;
  action: string;
  mint: string;
  amount: string;
  amount_units: number;
  denominated_in_sol: boolean;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
  venue: string;
  pool: string | null;
  expected_output: string;
  state_source: "cache" | "read";
  state_slot: number;
  timing_ms?: Record<string, number>;
}

/**
 * Upper bound of what a trade costs besides the traded lamports once the wallet's accounts exist:
 * signature fee 5 000, priority fee (10 000 µlamports × ~204k CU ≈ 2 000), relay tip 200 000.
 */
export const BALANCE_OVERHEAD_MAX = 300_000n;

/** The same for a wallet's first trade of a token, which also pays rent for its new accounts. */
export const FIRST_TRADE_OVERHEAD_MAX = 6_000_000n;

/** Posts a trade and returns its 200 body; any other status fails the test with the body. */
export async function trade(e2e: E2e, apiKey: string, body: TradeBody): Promise<TradeResult> {
  const res = await e2e.post(apiKey, "/v1/trades/execute", body);
  if (res.statusCode !== 200) throw new Error(`trade failed: ${res.statusCode} ${res.body}`);
  return res.json<TradeResult>();
}

// Helpers shared by the SOL and cashback execution tests.

/** Network fee a landed transaction paid, from the node's transaction meta. */
export async function feeOf(e2e: E2e, signature: string): Promise<bigint> {
  const tx = await e2e.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  if (!tx?.meta) throw new Error(`no meta for ${signature}`);
  return BigInt(tx.meta.fee);
}

/** The spec's effective reserve for a transfer transaction, from the same compute budget the chain uses. */
export function expectedReserve(e2e: E2e, requested: bigint): bigint {
  const { maxUnitLimit, priceMicroLamports } = e2e.chain.computeBudget("transfer");
  const floor =
    requested > SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM ? requested : SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM;
  return (
    floor +
    e2e.localnet.relayTipLamports +
    5_000n +
    (priceMicroLamports * maxUnitLimit + 999_999n) / 1_000_000n
  );
}

/** A fresh address no key holds. */
export const external = (): string => Keypair.generate().publicKey.toBase58();

const BACKGROUND = { "x-localnet-tag": "background" };

/** Whether a chain call is a cache refresh (blockhash, priority fee, the cached config accounts). */
function isBackgroundCall(body: string): boolean {
  const req = JSON.parse(body) as { method?: string; params?: unknown[] };
  if (req.method === "getLatestBlockhash" || req.method === "getRecentPrioritizationFees") return true;
  const first = Array.isArray(req.params?.[0]) ? (req.params[0] as unknown[])[0] : undefined;
  return req.method === "getMultipleAccounts" && first === LAUNCH_GLOBAL.toBase58();
}

/**
 * `startE2e` with the create lookup table installed and loaded, as the sandbox has it: a create with an initial
 * buy is over 1232 bytes without it.
 */
export async function startE2eWithLookupTable(options: E2eOptions = {}): Promise<E2e> {
  const authority = Keypair.generate();
  const table = createLookupTableAddress(authority.publicKey, 0);
  const e2e = await startE2e({ ...options, chain: { ...options.chain, lookupTables: [table.toBase58()] } });
  e2e.localnet.admin.fund(authority.publicKey.toBase58(), LAMPORTS_PER_SOL);
  await installCreateLookupTable(e2e.chain, authority, 0);
  await e2e.chain.caches.refresh();
  return e2e;
}

/** The localnet's landing routes as the trade service races them (short confirmation polls for tests). */
function localnetRacing(
  localnet: LocalnetHandle,
  { stats, confirmTimeoutMs = 5_000 }: { stats: RouteStats; confirmTimeoutMs?: number },
): TradeRacing {
  return {
    routes: localnet.routes.map((r) => ({
      name: r.name,
      client: createRelayClient({ url: r.url, timeoutMs: 2_000 }),
      tipAccounts: r.tipAccounts.map((a) => new PublicKey(a)),
      minTipLamports: r.minTipLamports,
      mevProtect: r.name === "route-a",
    })),
    stats,
    confirmTimeoutMs,
    confirmPollMs: 50,
  };
}
