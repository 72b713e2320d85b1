/**
 * The one PubSub WebSocket of the service (the `ws` package does the framing). It keeps a table of wanted
 * node-side subscriptions, each shared by every local handler with the same method and params; on every
 * (re)connect it subscribes all of them again, and after a loss it reconnects with bounded backoff. A ping
 * that goes unanswered for a whole interval ends a connection that went silent without closing.
 */
import WebSocket from "ws";
import type { BackoffOptions } from "./backoff.js";
import { backoffDelay, DEFAULT_BACKOFF } from "./backoff.js";
import type { PubSubMessage } from "./decode.js";
import { notificationSlot } from "./decode.js";

/** Options of the connection. */
export interface ConnectionOptions {
  url: string;
  /** Sent on the upgrade request (e.g. the localnet's x-localnet-tag: background). */
  headers?: Record<string, string>;
  backoff?: BackoffOptions;
  /** Ping interval; a connection that answers nothing for this long is closed and reopened. Default 10 s. */
  pingMs?: number;
  random?: () => number;
  now?: () => number;
  /** Told of connection losses and refused subscriptions (logs); never of secrets. */
  onError?: (message: string) => void;
}

/** One wanted node-side subscription. */
interface Entry {
  key: string;
  method: string;
  unsubscribeMethod: string;
  params: unknown[];
  handlers: Set<(result: unknown, slot: number | null) => void>;
  liveListeners: Set<(live: boolean) => void>;
  serverId: number | null;
  /** Settled once per entry: the node's first answer to its subscribe. */
  ready: Promise<void>;
  settle: { resolve: () => void; reject: (e: Error) => void };
}

/** Local handle of one handler on an entry. */
export interface EntryHandle {
  ready: Promise<void>;
  live(): boolean;
  remove(): void;
}

/** The connection manager. */
export class PubSubConnection {
  private ws: WebSocket | null = null;
  private open = false;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private heardSincePing = true;
  private nextRequestId = 1;
  private readonly pending = new Map<number, (m: PubSubMessage) => void>();
  private readonly entries = new Map<string, Entry>();
  private readonly byServerId = new Map<number, Entry>();
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private readonly now: () => number;
  /** Counters read by stats(). */
  updates = 0;
  reconnects = 0;
  lastSlot: number | null = null;
  lastMessageAt: number | null = null;

  constructor(private readonly options: ConnectionOptions) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** True while the WebSocket is open. */
  connected(): boolean {
    return this.open;
  }

  /** Wanted node-side subscriptions, and how many are confirmed on the open connection. */
  counts(): { subscriptions: number; live: number } {
    let live = 0;
    for (const e of this.entries.values()) if (e.serverId !== null) live++;
    return { subscriptions: this.entries.size, live };
  }

  /** Adds a handler on the (method, params) subscription, creating it node-side when it is the first. */
  add(
    method: string,
    unsubscribeMethod: string,
    params: unknown[],
    handler: (result: unknown, slot: number | null) => void,
    onLive?: (live: boolean) => void,
  ): EntryHandle {
    if (this.closed) throw new Error("subscriptions closed");
    const key = `${method}:${JSON.stringify(params)}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      let settle!: Entry["settle"];
      const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      // A refused subscription rejects `ready`; callers that never await it must not see an unhandled rejection.
      ready.catch(() => undefined);
      entry = {
        key,
        method,
        unsubscribeMethod,
        params,
        handlers: new Set(),
        liveListeners: new Set(),
        serverId: null,
        ready,
        settle,
      };
      this.entries.set(key, entry);
      if (this.open) this.subscribe(entry);
      else this.connect();
    }
    const e = entry;
    e.handlers.add(handler);
    if (onLive !== undefined) {
      e.liveListeners.add(onLive);
      if (e.serverId !== null) onLive(true);
    }
    let removed = false;
    return {
      ready: e.ready,
      live: () => !removed && e.serverId !== null && this.entries.get(key) === e,
      remove: () => {
        if (removed) return;
        removed = true;
        e.handlers.delete(handler);
        if (onLive !== undefined) e.liveListeners.delete(onLive);
        if (e.handlers.size === 0) this.drop(e);
      },
    };
  }

  /** Closes for good. */
  close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.stopPing();
    for (const e of this.entries.values()) e.settle.reject(new Error("subscriptions closed"));
    this.entries.clear();
    this.byServerId.clear();
    const ws = this.ws;
    this.ws = null;
    this.open = false;
    if (ws === null || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once("close", () => resolve());
      ws.terminate();
    });
  }

  private drop(e: Entry): void {
    if (this.entries.get(e.key) !== e) return;
    this.entries.delete(e.key);
    e.settle.reject(new Error("unsubscribed"));
    if (e.serverId !== null) {
      this.byServerId.delete(e.serverId);
      if (this.open) this.request(e.unsubscribeMethod, [e.serverId], () => undefined);
      e.serverId = null;
    }
  }

  private connect(): void {
    if (this.closed || this.ws !== null || this.reconnectTimer !== null) return;
    const ws = new WebSocket(this.options.url, { headers: this.options.headers, perMessageDeflate: false });
    this.ws = ws;
    ws.on("open", () => {
      this.open = true;
      this.heardSincePing = true;
      this.startPing(ws);
      for (const e of this.entries.values()) this.subscribe(e);
    });
    ws.on("message", (data: WebSocket.RawData) => this.receive(data));
    ws.on("pong", () => (this.heardSincePing = true));
    ws.on("error", (err: Error) => this.options.onError?.(`pubsub connection error: ${err.message}`));
    ws.on("close", () => this.lost(ws));
  }

  private lost(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.ws = null;
    const wasOpen = this.open;
    this.open = false;
    this.stopPing();
    for (const answer of this.pending.values()) answer({ error: { message: "connection lost" } });
    this.pending.clear();
    this.byServerId.clear();
    for (const e of this.entries.values()) {
      const was = e.serverId !== null;
      e.serverId = null;
      if (was) for (const l of e.liveListeners) l(false);
    }
    if (this.closed) return;
    if (wasOpen) this.options.onError?.("pubsub connection lost; reconnecting");
    const delay = backoffDelay(this.attempt++, this.backoff, this.random);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.reconnects++;
      this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private startPing(ws: WebSocket): void {
    const pingMs = this.options.pingMs ?? 10_000;
    this.pingTimer = setInterval(() => {
      if (!this.heardSincePing) {
        ws.terminate();
        return;
      }
      this.heardSincePing = false;
      ws.ping();
    }, pingMs);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private request(method: string, params: unknown[], answer: (m: PubSubMessage) => void): void {
    const id = this.nextRequestId++;
    this.pending.set(id, answer);
    this.ws?.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  }

  private subscribe(e: Entry): void {
    this.request(e.method, e.params, (m) => {
      if (this.entries.get(e.key) !== e) {
        // Unsubscribed while the subscribe was in flight: undo it node-side.
        if (typeof m.result === "number" && this.open) {
          this.request(e.unsubscribeMethod, [m.result], () => undefined);
        }
        return;
      }
      if (typeof m.result === "number") {
        e.serverId = m.result;
        this.byServerId.set(m.result, e);
        e.settle.resolve();
        for (const l of e.liveListeners) l(true);
        return;
      }
      const message = typeof m.error?.message === "string" ? m.error.message : "no subscription id";
      if (m.error?.message === "connection lost") return; // retried on the next connection
      this.options.onError?.(`${e.method} refused: ${message}`);
      this.entries.delete(e.key);
      e.settle.reject(new Error(`${e.method} refused: ${message}`));
    });
  }

  private receive(data: WebSocket.RawData): void {
    this.heardSincePing = true;
    this.lastMessageAt = this.now();
    // Anything from the node shows the connection works: later losses start the backoff over.
    this.attempt = 0;
    let m: PubSubMessage;
    try {
      m = JSON.parse(data.toString()) as PubSubMessage;
    } catch {
      this.options.onError?.("pubsub sent a message that is not JSON");
      return;
    }
    if (typeof m.id === "number" && m.method === undefined) {
      const answer = this.pending.get(m.id);
      this.pending.delete(m.id);
      answer?.(m);
      return;
    }
    if (typeof m.method !== "string" || typeof m.params?.subscription !== "number") return;
    this.updates++;
    const slot = notificationSlot(m.method, m.params.result);
    if (slot !== null && (this.lastSlot === null || slot > this.lastSlot)) this.lastSlot = slot;
    const e = this.byServerId.get(m.params.subscription);
    if (e === undefined) return;
    for (const h of e.handlers) {
      try {
        h(m.params.result, slot);
      } catch (err) {
        this.options.onError?.(`subscription handler failed: ${(err as Error).message}`);
      }
    }
  }
}
