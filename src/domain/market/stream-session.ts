/**
 * One stream connection's state: authentication (at the upgrade, or a first `auth` message within the
 * deadline), its subscriptions in the hub, and its limits. Transport-neutral: the HTTP edge passes a
 * transport over the WebSocket. A slow reader is closed once its unsent bytes pass the limit, so the
 * hub never waits for it and its memory stays bounded. Issue 29: the limit covers everything the session
 * writes, its replies (pong, subscribed, error, authenticated) as well as market messages.
 */
import { parseClientMessage, SUBSCRIBE_METHODS, type SubscribeMethod } from "./client-messages.js";
import type { MarketHub, MarketSink } from "./market-hub.js";

/** The socket as the session sees it. */
export interface StreamTransport {
  send(text: string): void;
  /** Bytes queued in the socket, not yet handed to the kernel (with the cost of each queued frame). */
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
  /**
   * Issue 29: client messages per second (fixed one-second windows) past which the connection is closed 4429;
   * 0 = no limit. Reading and parsing a stream of frames costs the server CPU and garbage even when every reply
   * is bounded.
   */
  maxMessagesPerSecond: number;
}

/** Close codes of the stream (documented in the README). */
export const CLOSE = {
  /** Missing, late or unknown API key. */
  unauthorized: 4401,
  /** The client did not read fast enough: more than maxQueuedBytes were waiting. */
  slowReader: 4008,
  /** The server is shutting down. */
  goingAway: 1001,
  /** Issue 29: the key was frozen (key or account) or lost the read scope while the stream was open. */
  forbidden: 4403,
  /** Issue 29: too many streams for this key or IP, or too many invalid keys from this IP (auth message). */
  tooMany: 4429,
} as const;

/** Why the server closed a connection (the `reason` label of lasertrade_stream_closed_total). */
export type CloseWhy = "unauthorized" | "slow_reader" | "forbidden" | "limited";

/** The answer to an auth message: accepted, or the close code and reason that refuse it. */
export type AuthOutcome = { ok: true } | { ok: false; code: number; reason: string };

/** What the session reports (metrics). */
export interface SessionObserver {
  delivered?(): void;
  closed?(reason: CloseWhy): void;
  subscriptionsChanged?(delta: number): void;
}

export interface SessionDeps {
  hub: MarketHub;
  limits: StreamLimits;
  /** Accepts `apiKey` (a known key that may read, within the caps), or says how to close. */
  authenticate(apiKey: string): Promise<AuthOutcome>;
  observer?: SessionObserver;
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
  /** Clock of the message-rate window, ms (tests); default Date.now. */
  nowMs?: () => number;
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
  // One auth message at a time: more sent while one is checked would be free guesses (issue 29, finding 13).
  private authPending = false;
  private windowStartMs = 0;
  private windowMessages = 0;

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
    if (this.write(text)) this.deps.observer?.delivered?.();
  }

  /** Ends the session from outside (its key no longer authorizes it, issue 29). */
  end(code: number, reason: string): void {
    this.shut(code, reason, code === CLOSE.unauthorized ? "unauthorized" : "forbidden");
  }

  /** Handles one text frame from the client. */
  async onText(text: string): Promise<void> {
    if (this.closed) return;
    if (this.overRate()) {
      const n = this.deps.limits.maxMessagesPerSecond;
      return this.shut(CLOSE.tooMany, `too many messages: at most ${n} per second`, "limited");
    }
    const parsed = parseClientMessage(text, this.deps.limits.maxSubscriptions);
    if ("error" in parsed) return this.error(parsed.error);
    const msg = parsed.ok;
    if (msg.method === "auth") {
      if (this.authed) return this.reply({ type: "authenticated" });
      if (this.authPending) return this.error("authentication in progress");
      this.authPending = true;
      const outcome = await this.deps.authenticate(msg.apiKey).finally(() => (this.authPending = false));
      if (this.closed) return;
      if (!outcome.ok)
        return this.shut(
          outcome.code,
          outcome.reason,
          outcome.code === CLOSE.tooMany ? "limited" : "unauthorized",
        );
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

  /** Counts one client message; true when it passes the per-second limit. */
  private overRate(): boolean {
    const max = this.deps.limits.maxMessagesPerSecond;
    if (max <= 0) return false;
    const now = (this.deps.nowMs ?? Date.now)();
    if (now - this.windowStartMs >= 1_000) {
      this.windowStartMs = now;
      this.windowMessages = 0;
    }
    this.windowMessages++;
    return this.windowMessages > max;
  }

  /** A reply to the client's message: under the same byte bound as market messages. */
  private reply(value: Record<string, unknown>): void {
    if (!this.closed) this.write(JSON.stringify(value));
  }

  /** Sends `text`, or closes the connection (4008) when the client's unread bytes would pass the limit. */
  private write(text: string): boolean {
    if (this.transport.bufferedBytes() + text.length > this.deps.limits.maxQueuedBytes) {
      this.shut(CLOSE.slowReader, "slow reader: too many bytes queued", "slow_reader");
      return false;
    }
    this.transport.send(text);
    return true;
  }

  /** Replies with an error message (also for frames the session does not parse, e.g. binary ones). */
  error(message: string): void {
    this.reply({ type: "error", message });
  }

  private shut(code: number, reason: string, why: CloseWhy): void {
    if (this.closed) return;
    this.deps.observer?.closed?.(why);
    this.onClose();
    this.transport.close(code, reason);
  }
}
