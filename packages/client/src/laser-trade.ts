/** The LaserTrade client: one object per API key, with a method per endpoint grouped by resource. */
import createClient from "openapi-fetch";
import { solText, unitsText, type Amount } from "./amounts.js";
import { LaserTradeError } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { parseBody } from "./json.js";
import { DEFAULT_RETRY, READ_ONLY_HEADER, retryingFetch, type RetryOptions } from "./retry.js";
import type * as T from "./types.js";
import { MarketStream, type StreamOptions } from "./stream.js";
import { collect, everyWallet, walletPage, type WalletPage } from "./wallet-pages.js";
import {
  eventStream,
  type EventsOptions,
  type EventsQuery,
  type ExecutionEvent,
  type StreamTarget,
} from "./events.js";

const FINAL_STATUSES = new Set(["confirmed", "finalized", "failed", "expired"]);

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

type RawResult = { data?: string; error?: unknown; response: Response };

/** Unwraps an openapi-fetch result: the parsed 200 body, or a LaserTradeError. */
async function unwrap<R>(call: Promise<RawResult>): Promise<R> {
  let result: RawResult;
  try {
    result = await call;
  } catch (e) {
    if (e instanceof LaserTradeError) throw e;
    const err = e as Error & { cause?: { message?: string } };
    const why = err.cause?.message ?? err.message;
    throw new LaserTradeError(0, `network error: ${why}`);
  }
  if (!result.response.ok) throw LaserTradeError.fromResponse(result.response.status, result.error);
  return parseBody(result.data ?? "null") as R;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** True when a transfer moves native SOL (mint omitted or "SOL"). */
function isNativeMint(mint: string | undefined): boolean {
  return mint === undefined || mint.toUpperCase() === "SOL";
}

function optional<V, R>(v: V | undefined, f: (v: V) => R): R | undefined {
  return v === undefined ? undefined : f(v);
}

/** Drops undefined fields so the body carries only what the caller set. */
function defined<O extends object>(o: O): O {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as O;
}

function bundleLeg(leg: T.BundleLegInput) {
  const solDenominated = leg.type === "buy" && leg.denominatedInSol !== false;
  return defined({
    ...leg,
    amount: optional(leg.amount, solDenominated ? solText : unitsText),
    initial_buy: optional(leg.initial_buy, solText),
  });
}

/** A client for one API key. Amounts go in as text or bigint base units; lamport fields come back as bigint. */
export class LaserTrade {
  readonly baseUrl: string;
  private readonly http;
  private readonly apiKey: string;
  /** What the event stream (raw fetch, no retry wrapper: it reconnects itself) needs. */
  private readonly eventTarget: StreamTarget;

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

  /** Options of an execution call: its Idempotency-Key (given or new) and signal. */
  private exec(options: T.CallOptions) {
    return {
      parseAs: "text" as const,
      params: { header: { "idempotency-key": options.idempotencyKey ?? newIdempotencyKey() } },
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    };
  }

  readonly wallets = {
    /** Creates a wallet; its secret key is in the response, once. */
    create: (input: { set_default?: boolean } = {}): Promise<T.CreatedWallet> =>
      unwrap(this.http.POST("/v1/wallets", { body: input, parseAs: "text" })),
    /** Imports a wallet from a base58 64-byte secret key or 32-byte seed. */
    import: (input: T.ImportWalletInput): Promise<T.Wallet> =>
      unwrap(this.http.POST("/v1/wallets/import", { body: input, parseAs: "text" })),
    /** The key's wallets, oldest first (public metadata only): all, or `limit` after the wallet id `after`. */
    list: (query: { limit?: number; after?: number } = {}): Promise<T.Wallet[]> =>
      unwrap(this.http.GET("/v1/wallets", { params: { query }, parseAs: "text" })),
    /** One page of wallets and the `after` of the next one (from the Link header; null on the last page). */
    page: (query: { limit: number; after?: number }): Promise<WalletPage<T.Wallet>> =>
      walletPage(unwrap, this.http.GET("/v1/wallets", { params: { query }, parseAs: "text" })),
    /** Every wallet, `pageSize` (default 200) per request: `for await (const w of client.wallets.iterate())`. */
    iterate: (o: { pageSize?: number } = {}): AsyncGenerator<T.Wallet, void, undefined> =>
      everyWallet((q) => this.wallets.page(q), o.pageSize),
    /** Every wallet of the key, following the pages (issue 23). */
    listAll: (o: { pageSize?: number } = {}): Promise<T.Wallet[]> => collect(this.wallets.iterate(o)),
    /** Makes a wallet the key's default. */
    setDefault: (publicKey: string): Promise<T.Wallet> =>
      unwrap(
        this.http.PUT("/v1/wallets/{public_key}/default", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
    /** SOL and every token account of one of the key's wallets (read from the chain). */
    balances: (publicKey: string): Promise<T.WalletBalances> =>
      unwrap(
        this.http.GET("/v1/wallets/{public_key}/balances", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
    /** Delinks a wallet (its encrypted key and history are deleted; the on-chain wallet is unchanged). */
    delink: (publicKey: string): Promise<T.DelinkResult> =>
      unwrap(
        this.http.DELETE("/v1/wallets/{public_key}", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
  };

  readonly trades = {
    /** Buys a token: `amount` in SOL (bigint: lamports) unless denominated_in_sol is false (token units). */
    buy: (input: T.BuyInput, options: T.CallOptions = {}): Promise<T.TradeResult> => {
      const amount = input.denominated_in_sol === false ? unitsText(input.amount) : solText(input.amount);
      return unwrap(
        this.http.POST("/v1/trades/execute", {
          body: defined({ ...input, action: "buy" as const, amount }),
          ...this.exec(options),
        }),
      );
    },
    /**
     * Prices a buy or sell without a wallet (GET /v1/quote): venue, tokens and lamports in and out, slippage
     * bounds, each fee and the price impact. `amount` as in buy/sell: SOL for a buy (bigint: lamports) unless
     * denominated_in_sol is false, token atomic units for a sell (no percentages: they need a wallet).
     */
    quote: (input: T.QuoteInput): Promise<T.QuoteResult> => {
      const inSol = input.side === "buy" && input.denominated_in_sol !== false;
      const query = defined({
        ...input,
        amount: inSol ? solText(input.amount) : unitsText(input.amount),
        slippage: optional(input.slippage, String),
      });
      return unwrap(this.http.GET("/v1/quote", { params: { query }, parseAs: "text" }));
    },
    /** Sells a token: `amount` in token atomic units, or a percentage text such as "100%". */
    sell: (input: T.SellInput, options: T.CallOptions = {}): Promise<T.TradeResult> =>
      unwrap(
        this.http.POST("/v1/trades/execute", {
          body: defined({ ...input, action: "sell" as const, amount: unitsText(input.amount) }),
          ...this.exec(options),
        }),
      ),
  };

  readonly tokens = {
    /** Launches a token with a server-generated mint, optionally with an atomic developer buy. */
    create: (input: T.CreateTokenInput, options: T.CallOptions = {}): Promise<T.CreateTokenResult> =>
      unwrap(
        this.http.POST("/v1/laser/create", {
          body: defined({ ...input, initial_buy: optional(input.initial_buy, solText) }),
          ...this.exec(options),
        }),
      ),
  };

  readonly bundles = {
    /** Submits an atomic bundle of 1 to 4 legs; `bundleTip` in SOL (bigint: lamports). */
    submit: (input: T.BundleInput, options: T.CallOptions = {}): Promise<T.BundleResult> =>
      unwrap(
        this.http.POST("/v1/laser/bundle", {
          body: defined({
            ...input,
            bundleTip: solText(input.bundleTip),
            accounts: input.accounts.map(bundleLeg),
          }),
          ...this.exec(options),
        }),
      ),
  };

  readonly cashback = {
    /** Claimable cashback of any wallets (read-only; the default wallet when none is named). */
    check: (input: T.CashbackCheckInput = {}): Promise<T.CashbackCheckResult> =>
      unwrap(
        this.http.POST("/v1/cashback/check", {
          body: input,
          parseAs: "text",
          headers: { [READ_ONLY_HEADER]: "1" },
        }),
      ),
    /** Claims a managed wallet's cashback (one transaction per source with something to claim). */
    claim: (input: T.CashbackClaimInput = {}, options: T.CallOptions = {}): Promise<T.CashbackClaimResult> =>
      unwrap(this.http.POST("/v1/cashback/claim/execute", { body: input, ...this.exec(options) })),
  };

  readonly sol = {
    /** Sends SOL (amount in SOL, bigint: lamports) or a token (mint given; amount in atomic units). */
    transfer: (input: T.TransferInput, options: T.CallOptions = {}): Promise<T.TransferResult> =>
      unwrap(
        this.http.POST("/v1/sol/transfer/execute", {
          body: defined({
            ...input,
            amount: isNativeMint(input.mint) ? solText(input.amount) : unitsText(input.amount),
            fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText),
          }),
          ...this.exec(options),
        }),
      ),
    /** Splits a wallet's SOL across up to five destinations in one transaction. */
    split: (input: T.SplitInput, options: T.CallOptions = {}): Promise<T.SplitResult> =>
      unwrap(
        this.http.POST("/v1/sol/split/execute", {
          body: defined({
            ...input,
            fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText),
            destinations: input.destinations.map((d) => defined({ ...d, sol: optional(d.sol, solText) })),
          }),
          ...this.exec(options),
        }),
      ),
    /** Sweeps SOL from managed wallets into one destination (one transaction per source). */
    consolidate: (input: T.ConsolidateInput, options: T.CallOptions = {}): Promise<T.ConsolidateResult> =>
      unwrap(
        this.http.POST("/v1/sol/consolidate/execute", {
          body: defined({ ...input, fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText) }),
          ...this.exec(options),
        }),
      ),
  };

  // Issue 19: any execution request as a dry run (the body as the endpoint takes it, amounts as text).
  readonly dryRun = {
    /** Checks, quotes and simulates `body` at `path` with `dry_run: true`: nothing is sent or recorded. */
    run: <P extends T.ExecutionPath>(
      path: P,
      body: T.Body<P, "post">,
      options: T.CallOptions = {},
    ): Promise<T.DryRunResult> =>
      unwrap(
        // The path is one of the execute routes, whose bodies the generated types know; openapi-fetch cannot
        // narrow a generic path, so the call is made through its common shape.
        (this.http.POST as (p: string, init: unknown) => Promise<RawResult>)(path, {
          body: { ...(body as object), dry_run: true },
          ...this.exec(options),
        }),
      ),
  };

  /** Warm venue state (issue 18): watched mints trade on subscribed state, without a read. */
  readonly watch = {
    /** Watches mints; resolves once their subscriptions are live. */
    add: (mints: string[]): Promise<T.WatchResult> =>
      unwrap(this.http.POST("/v1/watch", { body: { mints }, parseAs: "text" })),
    /** The watched mints, least recently traded first. */
    list: (): Promise<T.WatchResult> => unwrap(this.http.GET("/v1/watch", { parseAs: "text" })),
    /** Stops watching a mint. */
    remove: (mint: string): Promise<T.UnwatchResult> =>
      unwrap(this.http.DELETE("/v1/watch/{mint}", { params: { path: { mint } }, parseAs: "text" })),
  };

  readonly executions = {
    /** The key's executions, newest first (page with `offset` = the previous page's next_offset). */
    list: (query: T.ExecutionsQuery = {}): Promise<T.ExecutionsPage> =>
      unwrap(this.http.GET("/v1/executions", { params: { query }, parseAs: "text" })),
    /** One execution by its id (`execution_id` of an execution answer); `wait` seconds (0–60) for a final status. */
    get: (id: string, options: { wait?: number } = {}): Promise<T.Execution> =>
      unwrap(
        this.http.GET("/v1/executions/{id}", {
          params: { path: { id }, query: options.wait !== undefined ? { wait: options.wait } : {} },
          parseAs: "text",
        }),
      ),
    /** The execution that carries a transaction signature (any leg of a bundle), or undefined. */
    bySignature: async (signature: string): Promise<T.Execution | undefined> => {
      const page = await this.executions.list({ signature, limit: 1 } as T.ExecutionsQuery);
      return page.executions[0];
    },
  };

  // Issue 19: scoped sub-keys, policies, freeze, the activity log (these need a key with the `keys` scope).
  readonly keys = {
    /** Creates a sub-key; its `api_key` is returned only here. */
    create: (input: T.CreateKeyInput): Promise<T.CreatedKey> =>
      unwrap(this.http.POST("/v1/keys", { body: input, parseAs: "text" })),
    /** The account's keys (no secrets; the root key has `root: true`). */
    list: async (): Promise<T.Key[]> =>
      (await unwrap<{ keys: T.Key[] }>(this.http.GET("/v1/keys", { parseAs: "text" }))).keys,
    /** Revokes a sub-key at once in every process. */
    revoke: (id: number): Promise<T.Key> =>
      unwrap(this.http.DELETE("/v1/keys/{id}", { params: { path: { id: String(id) } }, parseAs: "text" })),
    freeze: (id: number): Promise<T.Key> =>
      unwrap(
        this.http.POST("/v1/keys/{id}/freeze", { params: { path: { id: String(id) } }, parseAs: "text" }),
      ),
    unfreeze: (id: number): Promise<T.Key> =>
      unwrap(
        this.http.POST("/v1/keys/{id}/unfreeze", { params: { path: { id: String(id) } }, parseAs: "text" }),
      ),
    /** Replaces the key's whole policy (`{}` clears it). */
    setPolicy: (id: number, policy: T.PolicyInput): Promise<T.Key> =>
      unwrap(
        this.http.PUT("/v1/keys/{id}/policy", {
          params: { path: { id: String(id) } },
          body: policy,
          parseAs: "text",
        }),
      ),
  };

  /** Account-wide stop (root key only). */
  readonly account = {
    freeze: (): Promise<{ frozen: boolean }> =>
      unwrap(this.http.POST("/v1/account/freeze", { parseAs: "text" })),
    unfreeze: (): Promise<{ frozen: boolean }> =>
      unwrap(this.http.POST("/v1/account/unfreeze", { parseAs: "text" })),
  };

  readonly activity = {
    /** The activity log, newest first; pass `after: next_cursor` for the next page. */
    list: (query: T.ActivityQuery = {}): Promise<T.ActivityPage> =>
      unwrap(this.http.GET("/v1/activity", { params: { query }, parseAs: "text" })),
  };

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
  async waitFor(
    executionId: string,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T.Execution> {
    const until = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const wait = Math.max(0, Math.min(60, Math.ceil((until - Date.now()) / 1000)));
      const record = await unwrap<T.Execution>(
        this.http.GET("/v1/executions/{id}", {
          params: { path: { id: executionId }, query: { wait } },
          parseAs: "text",
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        }),
      );
      if (FINAL_STATUSES.has(record.status) || Date.now() >= until || options.signal?.aborted === true)
        return record;
    }
  }

  readonly webhooks = {
    /** Registers an endpoint; the returned `secret` (whsec_...) is shown only here. */
    create: (input: T.WebhookInput): Promise<T.CreatedWebhook> =>
      unwrap(this.http.POST("/v1/webhooks", { body: input, parseAs: "text" })),
    /** The key's endpoints (without secrets). */
    list: (): Promise<T.WebhookList> => unwrap(this.http.GET("/v1/webhooks", { parseAs: "text" })),
    /** Deletes an endpoint and its deliveries. */
    delete: async (id: string): Promise<void> => {
      await unwrap(this.http.DELETE("/v1/webhooks/{id}", { params: { path: { id } }, parseAs: "text" }));
    },
    /** Queues a webhook.test delivery. */
    test: (id: string): Promise<T.WebhookDelivery> =>
      unwrap(this.http.POST("/v1/webhooks/{id}/test", { params: { path: { id } }, parseAs: "text" })),
    /** The endpoint's latest deliveries, newest first. */
    deliveries: (id: string): Promise<T.WebhookDeliveries> =>
      unwrap(this.http.GET("/v1/webhooks/{id}/deliveries", { params: { path: { id } }, parseAs: "text" })),
    /** Sends a delivery again now, with the same webhook-id. */
    retry: (id: string, deliveryId: string): Promise<T.WebhookDelivery> =>
      unwrap(
        this.http.POST("/v1/webhooks/{id}/deliveries/{delivery_id}/retry", {
          params: { path: { id, delivery_id: deliveryId } },
          parseAs: "text",
        }),
      ),
  };
}

export type { Amount };
