/**
 * The market data stream (GET /v1/stream): new tokens, trades by mint or wallet, migrations, as typed
 * events with bigint amounts. Authenticates with a first `auth` message (works where a WebSocket cannot
 * set headers); subscribe calls resolve on the server's acknowledgement.
 */

/** Fields every stream event carries. */
interface EventCommon {
  signature: string;
  slot: number;
  mint: string;
  /** Unix seconds, as the program's event reports it. */
  timestamp: number;
}

/** A token created on the bonding curve. */
export interface NewTokenEvent extends EventCommon {
  type: "new_token";
  name: string;
  symbol: string;
  uri: string;
  creator: string;
  trader: string;
  bonding_curve: string;
  virtual_sol_reserves: bigint;
  virtual_token_reserves: bigint;
  real_token_reserves: bigint;
  token_total_supply: bigint;
  /** SOL, decimal text with 9 decimals. */
  market_cap_sol: string;
  is_mayhem: boolean;
  is_cashback: boolean;
}

/** A buy or sell on the bonding curve or the launchswap pool; reserves are after the trade. */
export interface TradeEvent extends EventCommon {
  type: "trade";
  venue: "bonding_curve" | "launchswap";
  pool: string | null;
  trader: string;
  side: "buy" | "sell";
  /** Lamports, fees excluded, as the program's event reports it. */
  sol_amount: bigint;
  /** Token atomic units. */
  token_amount: bigint;
  virtual_sol_reserves: bigint;
  virtual_token_reserves: bigint;
  real_sol_reserves: bigint;
  real_token_reserves: bigint;
  market_cap_sol: string;
  is_mayhem: boolean;
  is_cashback: boolean;
  curve_complete: boolean;
  /** The mint the quote amounts are counted in (wrapped SOL for SOL-quoted coins). */
  quote_mint: string;
  /** The buyer's total in `quote_mint` units, fees excluded (same value as `sol_amount`). */
  quote_amount: bigint;
  /** Of `token_amount`, the pool part of a buy that completed the curve (synthetic migration); else 0. */
  post_complete_token_amount: bigint;
  /** Of `quote_amount`, what that pool part cost; else 0. */
  post_complete_quote_amount: bigint;
}

/** A curve sold out: sent after the trade that completed it; its migration follows as `migration`. */
export interface CompleteEvent extends EventCommon {
  type: "complete";
  bonding_curve: string;
  trader: string;
}

/** A complete curve migrated into its launchswap pool. */
export interface MigrationEvent extends EventCommon {
  type: "migration";
  pool: string;
  trader: string;
  sol_amount: bigint;
  token_amount: bigint;
  pool_migration_fee: bigint;
}

/** Every event the stream delivers. */
export type StreamEvent = NewTokenEvent | TradeEvent | CompleteEvent | MigrationEvent;

/** The minimal WHATWG WebSocket surface the stream uses (the global one, or the `ws` package's). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (e: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (e: { code: number; reason: string }) => void): void;
  addEventListener(type: "error", listener: (e: unknown) => void): void;
}

/** A WebSocket constructor. */
export type WebSocketCtor = new (url: string) => WebSocketLike;

export interface StreamOptions {
  /** WebSocket implementation; default the global one, else the `ws` package. */
  webSocket?: WebSocketCtor;
  /** Events kept for the iterator until it takes them (oldest dropped past it). Default 10,000. */
  maxBuffered?: number;
}

const BIGINT_FIELDS = new Set([
  "sol_amount",
  "token_amount",
  "virtual_sol_reserves",
  "virtual_token_reserves",
  "real_sol_reserves",
  "real_token_reserves",
  "token_total_supply",
  "pool_migration_fee",
  "quote_amount",
  "post_complete_token_amount",
  "post_complete_quote_amount",
]);

/** Parses one event message: decimal-string amounts become bigint. */
export function parseStreamEvent(raw: Record<string, unknown>): StreamEvent {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw))
    out[k] = BIGINT_FIELDS.has(k) && typeof v === "string" ? BigInt(v) : v;
  return out as unknown as StreamEvent;
}

/** The stream's WebSocket URL for a service base URL. */
export function streamUrl(baseUrl: string): string {
  const u = new URL(`${baseUrl.replace(/\/+$/, "")}/v1/stream`);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  return u.toString();
}

async function defaultWebSocket(): Promise<WebSocketCtor> {
  const global = (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
  if (global !== undefined) return global;
  // Node 20 has no global WebSocket: the `ws` package (a dependency of this client) fills in.
  const specifier = "ws";
  const mod = (await import(specifier)) as { default: WebSocketCtor };
  return mod.default;
}

type Pending = { resolve: (m: Record<string, unknown>) => void; reject: (e: Error) => void };

/** An open, authenticated stream. Iterate it (`for await`) or pass `onEvent`; `close()` ends it. */
export class MarketStream implements AsyncIterable<StreamEvent> {
  private readonly pending: Pending[] = [];
  private readonly queue: StreamEvent[] = [];
  private readonly listeners: ((e: StreamEvent) => void)[] = [];
  private wake: (() => void) | null = null;
  /** Events not yet taken by an iterator; past the bound the oldest are dropped. */
  private readonly maxBuffered: number;
  private ended: { code: number; reason: string } | null = null;
  /** Resolves with the close code and reason when the connection ends. */
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(
    private readonly ws: WebSocketLike,
    maxBuffered: number,
  ) {
    this.maxBuffered = maxBuffered;
    this.closed = new Promise((resolve) =>
      ws.addEventListener("close", (e) => {
        this.ended = { code: e.code, reason: e.reason };
        for (const p of this.pending.splice(0)) p.reject(new Error(`stream closed (${e.code} ${e.reason})`));
        this.wake?.();
        resolve(this.ended);
      }),
    );
    ws.addEventListener("message", (e) => this.onMessage(String(e.data)));
  }

  /** Connects and authenticates with `apiKey`; rejects when the key is refused. */
  static async open(baseUrl: string, apiKey: string, options: StreamOptions = {}): Promise<MarketStream> {
    const Ctor = options.webSocket ?? (await defaultWebSocket());
    const ws = new Ctor(streamUrl(baseUrl));
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error(`cannot connect to ${streamUrl(baseUrl)}`)));
    });
    const stream = new MarketStream(ws, options.maxBuffered ?? 10_000);
    await stream.request({ method: "auth", api_key: apiKey });
    return stream;
  }

  /** Every new token. */
  subscribeNewToken(): Promise<void> {
    return this.call("subscribeNewToken");
  }
  unsubscribeNewToken(): Promise<void> {
    return this.call("unsubscribeNewToken");
  }
  /** Every migration of a curve to its pool. */
  subscribeMigration(): Promise<void> {
    return this.call("subscribeMigration");
  }
  unsubscribeMigration(): Promise<void> {
    return this.call("unsubscribeMigration");
  }
  /** Trades of these mints. */
  subscribeTokenTrade(mints: string[]): Promise<void> {
    return this.call("subscribeTokenTrade", mints);
  }
  unsubscribeTokenTrade(mints: string[]): Promise<void> {
    return this.call("unsubscribeTokenTrade", mints);
  }
  /** Trades by these wallets (any wallet on the chain). */
  subscribeAccountTrade(wallets: string[]): Promise<void> {
    return this.call("subscribeAccountTrade", wallets);
  }
  unsubscribeAccountTrade(wallets: string[]): Promise<void> {
    return this.call("unsubscribeAccountTrade", wallets);
  }

  /** Calls `listener` for every event (besides any iterator). */
  onEvent(listener: (e: StreamEvent) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.ws.close(1000, "client closed");
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended !== null) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private async call(method: string, keys?: string[]): Promise<void> {
    await this.request(keys === undefined ? { method } : { method, keys });
  }

  /** Sends a request; resolves with its reply (replies come back in request order). */
  private request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.ended !== null) return Promise.reject(new Error("stream is closed"));
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.ws.send(JSON.stringify(body));
    });
  }

  private onMessage(text: string): void {
    const m = JSON.parse(text) as Record<string, unknown>;
    const type = m.type;
    if (type === "new_token" || type === "trade" || type === "complete" || type === "migration") {
      const event = parseStreamEvent(m);
      for (const l of this.listeners) l(event);
      this.queue.push(event);
      if (this.queue.length > this.maxBuffered) this.queue.shift();
      this.wake?.();
      return;
    }
    const p = this.pending.shift();
    if (p === undefined) return;
    if (type === "error") p.reject(new Error(String(m.message)));
    else p.resolve(m);
  }
}
