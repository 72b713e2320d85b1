/** The LaserTrade client: one object per API key, with a method per endpoint grouped by resource (resources/). */
import createClient from "openapi-fetch";
import { type Amount } from "./amounts.js";
import { unwrap, type Http } from "./call.js";
import type { paths } from "./generated/openapi.js";
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from "./retry.js";
import type * as T from "./types.js";
import { MarketStream, type StreamOptions } from "./stream.js";
import {
  eventStream,
  type EventsOptions,
  type EventsQuery,
  type ExecutionEvent,
  type StreamTarget,
} from "./events.js";
import { walletsResource } from "./resources/wallets.js";
import { bundlesResource, tokensResource, tradesResource } from "./resources/trades.js";
import { cashbackResource, solResource } from "./resources/funds.js";
import { dryRunResource, executionsResource, waitForFinal } from "./resources/executions.js";
import { watchResource } from "./resources/watch.js";
import { routesResource } from "./resources/routes.js";
import { ordersResource } from "./resources/orders.js";
import { accountResource, activityResource, keysResource } from "./resources/keys.js";
import { webhooksResource } from "./resources/webhooks.js";
import { pnlCall, positionsResource } from "./resources/positions.js";

/** How a client reaches the service. */
export interface LaserTradeOptions {
  /** Base URL of the service, e.g. http://localhost:8080. */
  baseUrl: string;
  apiKey: string;
  /** Retry spacing (429/503 and repeatable network errors); `{ retries: 0 }` turns retries off. */
  retry?: Partial<RetryOptions>;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
}

/** A client for one API key. Amounts go in as text or bigint base units; lamport fields come back as bigint. */
export class LaserTrade {
  readonly baseUrl: string;
  private readonly http: Http;
  private readonly apiKey: string;
  /** What the event stream (raw fetch, no retry wrapper: it reconnects itself) needs. */
  private readonly eventTarget: StreamTarget;

  readonly wallets: ReturnType<typeof walletsResource>;
  readonly trades: ReturnType<typeof tradesResource>;
  readonly tokens: ReturnType<typeof tokensResource>;
  readonly bundles: ReturnType<typeof bundlesResource>;
  readonly cashback: ReturnType<typeof cashbackResource>;
  readonly sol: ReturnType<typeof solResource>;
  /** Any execution request as a dry run (issue 19): the body as the endpoint takes it, amounts as text. */
  readonly dryRun: ReturnType<typeof dryRunResource>;
  /** Warm venue state (issue 18): watched mints trade on subscribed state, without a read. */
  readonly watch: ReturnType<typeof watchResource>;
  /** The landing routes raced trades go over (`routes` / `mev_protect` on a trade), with their figures. */
  readonly routes: ReturnType<typeof routesResource>;
  /** Orders the service runs: limit, take-profit, stop-loss, trailing stop, bracket. */
  readonly orders: ReturnType<typeof ordersResource>;
  readonly executions: ReturnType<typeof executionsResource>;
  /** Scoped sub-keys and policies (issue 19; needs a key with the `keys` scope). */
  readonly keys: ReturnType<typeof keysResource>;
  /** Account-wide stop (root key only). */
  readonly account: ReturnType<typeof accountResource>;
  readonly activity: ReturnType<typeof activityResource>;
  readonly webhooks: ReturnType<typeof webhooksResource>;
  /** Positions kept from the fills (wallet × mint): tokens, cost basis, realized and unrealized PnL. */
  readonly positions: ReturnType<typeof positionsResource>;
  /** Realized and unrealized PnL, fees, tips, volume and trade counts (GET /v1/pnl), optionally grouped. */
  readonly pnl: ReturnType<typeof pnlCall>;

  constructor(options: LaserTradeOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    const inner = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
    this.eventTarget = { baseUrl: this.baseUrl, apiKey: options.apiKey, fetch: inner };
    this.http = createClient<paths>({
      baseUrl: this.baseUrl,
      // Setup is the one call without a key.
      headers: options.apiKey !== "" ? { "x-api-key": options.apiKey } : {},
      fetch: retryingFetch(inner, { ...DEFAULT_RETRY, ...options.retry }),
    });
    this.wallets = walletsResource(this.http);
    this.trades = tradesResource(this.http);
    this.tokens = tokensResource(this.http);
    this.bundles = bundlesResource(this.http);
    this.cashback = cashbackResource(this.http);
    this.sol = solResource(this.http);
    this.dryRun = dryRunResource(this.http);
    this.watch = watchResource(this.http);
    this.routes = routesResource(this.http);
    this.orders = ordersResource(this.http);
    this.executions = executionsResource(this.http);
    this.keys = keysResource(this.http);
    this.account = accountResource(this.http);
    this.activity = activityResource(this.http);
    this.webhooks = webhooksResource(this.http);
    this.positions = positionsResource(this.http);
    this.pnl = pnlCall(this.http);
  }

  /** Creates an API key and its first default wallet (POST /v1/laser/setup); the secrets are shown once. */
  static async setup(
    baseUrl: string,
    options: Omit<LaserTradeOptions, "baseUrl" | "apiKey"> = {},
  ): Promise<T.SetupResult & { client: LaserTrade }> {
    const anonymous = new LaserTrade({ ...options, baseUrl, apiKey: "" });
    const result = await unwrap<T.SetupResult>(anonymous.http.POST("/v1/laser/setup", { parseAs: "text" }));
    return { ...result, client: new LaserTrade({ ...options, baseUrl, apiKey: result.api_key }) };
  }

  /** Opens the market data stream (GET /v1/stream), authenticated with this client's key. */
  stream(options: StreamOptions = {}): Promise<MarketStream> {
    return MarketStream.open(this.baseUrl, this.apiKey, options);
  }

  /**
   * The key's execution events as they happen (GET /v1/events): an async iterator that reconnects after a
   * dropped connection and resumes after the last event it yielded, so none is lost or repeated.
   */
  events(query: EventsQuery = {}, options: EventsOptions = {}): AsyncGenerator<ExecutionEvent> {
    return eventStream(this.eventTarget, query, options);
  }

  /**
   * Waits until the execution is final (confirmed, finalized, failed, expired) or `timeoutMs` passes (default
   * 120 s), using the server's long-poll; returns the record as it then is.
   */
  waitFor(
    executionId: string,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T.Execution> {
    return waitForFinal(this.http, executionId, options);
  }
}

export type { Amount };
