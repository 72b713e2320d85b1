/**
 * One stream connection's state: authentication (at the upgrade, or a first `auth` message within the
 * deadline), its subscriptions in the hub, and its limits. Transport-neutral: the HTTP edge passes a
 * transport over the WebSocket. A slow reader is closed once its unsent bytes pass the limit, so the
 * hub never waits for it and its memory stays bounded.
 */
import { parseClientMessage, SUBSCRIBE_METHODS, type SubscribeMethod } from "./client-messages.js";
import type { MarketHub, MarketSink } from "./market-hub.js";

/** The socket as the session sees it. */
export interface StreamTransport {
  send(text: string): void;
  /** Bytes queued in the socket, not yet handed to the kernel. */
  bufferedBytes(): number;
  close(code: number, reason: string): void;
}

/** Per-connection limits. */
export interface StreamLimits {
  /** new-token and migration count one each; every mint and wallet key counts one. */
  maxSubscriptions: number;
  /** Unsent bytes past which the connection is closed (slow reader). */
  maxQueuedBytes: number;
  /** Time to send `auth` when the upgrade carried no key. */
  authTimeoutMs: number;
}

/** Close codes of the stream (documented in the README). */
export const CLOSE = {
  /** Missing, late or unknown API key. */
  unauthorized: 4401,
  /** The client did not read fast enough: more than maxQueuedBytes were waiting. */
  slowReader: 4008,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;

/** What the session reports (metrics). */
export interface SessionObserver {
  delivered?(): void;
  closed?(reason: "unauthorized" | "slow_reader"): void;
  subscriptionsChanged?(delta: number): void;
}

export interface SessionDeps {
  hub: MarketHub;
  limits: StreamLimits;
  /** Resolves true when `apiKey` is a known key. */
  authenticate(apiKey: string): Promise<boolean>;
  observer?: SessionObserver;
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
}

/** A connection's session; call `onText` for each text frame and `onClose` once. */
export class StreamSession implements MarketSink {
  private authed: boolean;
  private closed = false;
  private newToken = false;
  private migration = false;
  private readonly mints = new Set<string>();
  private readonly accounts = new Set<string>();
  private authTimer: { cancel(): void } | null = null;

  constructor(
    private readonly transport: StreamTransport,
    private readonly deps: SessionDeps,
    authenticated: boolean,
  ) {
    this.authed = authenticated;
    if (!authenticated) {
      const set =
        deps.setTimer ??
        ((fn, ms) => {
          const t = setTimeout(fn, ms);
          return { cancel: () => clearTimeout(t) };
        });
      this.authTimer = set(() => {
        if (!this.authed) this.shut(CLOSE.unauthorized, "auth required within the deadline", "unauthorized");
      }, deps.limits.authTimeoutMs);
    }
  }

  /** Subscriptions held (new-token and migration count one each). */
  subscriptionCount(): number {
    return (this.newToken ? 1 : 0) + (this.migration ? 1 : 0) + this.mints.size + this.accounts.size;
  }

  /** Hub delivery: send, or close the connection when the client is not reading. */
  deliver(text: string): void {
    if (this.closed || !this.authed) return;
    if (this.transport.bufferedBytes() + text.length > this.deps.limits.maxQueuedBytes) {
      this.shut(CLOSE.slowReader, "slow reader: too many bytes queued", "slow_reader");
      return;
    }
    this.transport.send(text);
    this.deps.observer?.delivered?.();
  }

  /** Handles one text frame from the client. */
  async onText(text: string): Promise<void> {
    if (this.closed) return;
    const parsed = parseClientMessage(text, this.deps.limits.maxSubscriptions);
    if ("error" in parsed) return this.error(parsed.error);
    const msg = parsed.ok;
    if (msg.method === "auth") {
      if (this.authed) return this.reply({ type: "authenticated" });
      const ok = await this.deps.authenticate(msg.apiKey);
      if (this.closed) return;
      if (!ok) return this.shut(CLOSE.unauthorized, "unknown API key", "unauthorized");
      this.authed = true;
      this.authTimer?.cancel();
      return this.reply({ type: "authenticated" });
    }
    if (!this.authed) return this.error('authenticate first: send {"method":"auth","api_key":"..."}');
    if (msg.method === "ping") return this.reply({ type: "pong" });
    this.subscribe(msg.method, msg.keys);
  }

  /** The connection closed: drop every subscription. */
  onClose(): void {
    if (this.closed && this.subscriptionCount() === 0) return;
    this.closed = true;
    this.authTimer?.cancel();
    const before = this.subscriptionCount();
    this.deps.hub.removeSink(this, { token: this.mints, account: this.accounts });
    this.newToken = this.migration = false;
    this.mints.clear();
    this.accounts.clear();
    if (before > 0) this.deps.observer?.subscriptionsChanged?.(-before);
  }

  private subscribe(method: SubscribeMethod, keys: string[]): void {
    const { topic, on } = SUBSCRIBE_METHODS[method];
    const before = this.subscriptionCount();
    if (topic === "new_token" || topic === "migration") {
      const held = topic === "new_token" ? this.newToken : this.migration;
      if (on && !held && before + 1 > this.deps.limits.maxSubscriptions) return this.limitError(method);
      if (topic === "new_token") {
        this.newToken = on;
        this.deps.hub.setNewToken(this, on);
      } else {
        this.migration = on;
        this.deps.hub.setMigration(this, on);
      }
    } else {
      const set = topic === "token" ? this.mints : this.accounts;
      if (on) {
        const fresh = keys.filter((k) => !set.has(k));
        if (before + fresh.length > this.deps.limits.maxSubscriptions) return this.limitError(method);
        for (const k of fresh) {
          set.add(k);
          this.deps.hub.addKey(topic, k, this);
        }
      } else {
        for (const k of keys) {
          if (set.delete(k)) this.deps.hub.removeKey(topic, k, this);
        }
      }
    }
    const delta = this.subscriptionCount() - before;
    if (delta !== 0) this.deps.observer?.subscriptionsChanged?.(delta);
    this.reply({
      type: on ? "subscribed" : "unsubscribed",
      method,
      keys,
      subscriptions: this.subscriptionCount(),
    });
  }

  private limitError(method: string): void {
    this.error(`${method}: at most ${this.deps.limits.maxSubscriptions} subscriptions per connection`);
  }

  private error(message: string): void {
    this.reply({ type: "error", message });
  }

  private reply(value: Record<string, unknown>): void {
    if (!this.closed) this.transport.send(JSON.stringify(value));
  }

  private shut(code: number, reason: string, why: "unauthorized" | "slow_reader"): void {
    if (this.closed) return;
    this.deps.observer?.closed?.(why);
    this.onClose();
    this.transport.close(code, reason);
  }
}
