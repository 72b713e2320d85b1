/**
 * The open streams of this process (issue 29): every GET /v1/stream WebSocket and GET /v1/events SSE response,
 * with its client IP and, once authenticated, its key. It caps streams per key and per IP, and ends a stream
 * whose key stops authorizing it: on a key-change hint for its account (this process's key routes, or another
 * process's through the store's wake-ups) and at the key's expires_at.
 */
import type { ApiError } from "../../core/errors.js";
import type { KeyRecord, Store } from "../../store/index.js";
import { authorize } from "../keys/scopes.js";

/** Caps on open streams; 0 = no cap. */
export interface StreamCaps {
  perKey: number;
  perIp: number;
}

/** How the registry ends a stream: `code` 4401 (revoked, expired) or 4403 (frozen, scope), with a reason. */
export interface StreamEnd {
  end(code: number, reason: string): void;
}

/** Close codes of the registry's decisions (the WebSocket's; an SSE stream names them in its last message). */
export const STREAM_END_CODES = {
  /** The key was revoked or expired (or is gone). */
  unauthorized: 4401,
  /** The key or its account was frozen, or the key lost the read scope. */
  forbidden: 4403,
  /** Too many streams for this key (or IP), or too many invalid keys from this IP. */
  tooMany: 4429,
} as const;

/** One registered stream; `bind` when its key is known, `release` once when it ends. */
export interface StreamTicket {
  /** Attaches the key; undefined when admitted, else the cap's refusal text (the ticket is then released). */
  bind(key: KeyRecord): string | undefined;
  release(): void;
}

export interface StreamRegistryDeps {
  caps: StreamCaps;
  store: Pick<Store, "findKey" | "onKeysChanged">;
  clock: () => Date;
  /** Timer of the expiry check (tests); default setTimeout, unref'd. */
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
  /** A re-check that failed to read the key (the stream stays open; the next hint re-checks it). */
  onError?: (e: unknown) => void;
}

interface Entry {
  ip: string;
  end: StreamEnd;
  key: KeyRecord | null;
  timer: { cancel(): void } | null;
  released: boolean;
}

// setTimeout's longest delay; a later expiry is re-armed when this one fires.
const MAX_TIMER_MS = 2_147_483_647;

/** Retry-After of a 429 at a full cap: a hint only (a slot frees when one of the streams ends). */
export const STREAM_CAP_RETRY_SECONDS = 5;

/** Refusal texts of the caps (429 at the request or upgrade; the reason of a 4429 close after the auth message). */
export const STREAM_CAP_TEXTS = {
  perKey: (n: number) => `too many open streams for this API key (at most ${n}); close one first`,
  perIp: (n: number) => `too many open streams from this address (at most ${n}); close one first`,
};

/** The registry of one process's open streams. */
export class StreamRegistry {
  private readonly entries = new Set<Entry>();
  private readonly byIp = new Map<string, number>();
  private readonly byKey = new Map<number, number>();
  private readonly off: () => void;

  constructor(private readonly deps: StreamRegistryDeps) {
    this.off = deps.store.onKeysChanged((accountId) => void this.recheck(accountId));
  }

  /** Open streams now (for tests and metrics). */
  size(): number {
    return this.entries.size;
  }

  /** The refusal text when a new stream from `ip` (with `keyId`, when known) would pass a cap; undefined if not. */
  refusal(ip: string, keyId?: number): string | undefined {
    const { perIp, perKey } = this.deps.caps;
    if (perIp > 0 && (this.byIp.get(ip) ?? 0) >= perIp) return STREAM_CAP_TEXTS.perIp(perIp);
    if (keyId !== undefined && perKey > 0 && (this.byKey.get(keyId) ?? 0) >= perKey)
      return STREAM_CAP_TEXTS.perKey(perKey);
    return undefined;
  }

  /**
   * Registers a stream from `ip` (its key, when known at once, bound too). Returns the cap's refusal text
   * instead when a cap is full: nothing is registered then.
   */
  open(ip: string, end: StreamEnd, key?: KeyRecord): StreamTicket | string {
    const refused = this.refusal(ip, key?.id);
    if (refused !== undefined) return refused;
    const entry: Entry = { ip, end, key: null, timer: null, released: false };
    this.entries.add(entry);
    bump(this.byIp, ip, 1);
    const ticket: StreamTicket = {
      bind: (k) => this.bind(entry, k),
      release: () => this.release(entry),
    };
    if (key !== undefined) this.bind(entry, key);
    return ticket;
  }

  /** Re-reads the keys of the account's open streams (undefined: every stream's) and ends those no longer allowed. */
  async recheck(accountId: number | undefined): Promise<void> {
    const due = [...this.entries].filter(
      (e) => e.key !== null && (accountId === undefined || e.key.accountId === accountId),
    );
    await Promise.all(due.map((e) => this.recheckEntry(e)));
  }

  /** Stops listening to key-change hints and cancels the expiry timers (the app is closing). */
  close(): void {
    this.off();
    for (const e of this.entries) e.timer?.cancel();
  }

  private bind(entry: Entry, key: KeyRecord): string | undefined {
    if (entry.released) return undefined;
    const { perKey } = this.deps.caps;
    if (perKey > 0 && (this.byKey.get(key.id) ?? 0) >= perKey) {
      this.release(entry);
      return STREAM_CAP_TEXTS.perKey(perKey);
    }
    entry.key = key;
    bump(this.byKey, key.id, 1);
    // A frozen key may still read snapshots (GET lists), but a live stream follows the stricter rule: one opened
    // while the key or account is frozen ends at once, as an open one does when the freeze arrives. Ended on the
    // next turn, so the caller has finished opening it.
    const verdict = streamVerdict(key, this.deps.clock());
    if (verdict !== undefined) {
      setImmediate(() => {
        if (entry.released) return;
        this.release(entry);
        entry.end.end(verdict.code, verdict.reason);
      });
      return undefined;
    }
    this.armExpiry(entry, key);
    return undefined;
  }

  private release(entry: Entry): void {
    if (entry.released) return;
    entry.released = true;
    entry.timer?.cancel();
    this.entries.delete(entry);
    bump(this.byIp, entry.ip, -1);
    if (entry.key !== null) bump(this.byKey, entry.key.id, -1);
  }

  private armExpiry(entry: Entry, key: KeyRecord): void {
    entry.timer?.cancel();
    entry.timer = null;
    if (key.expiresAt === null) return;
    const ms = Math.max(0, Date.parse(key.expiresAt) - this.deps.clock().getTime());
    const set = this.deps.setTimer ?? unrefTimer;
    entry.timer = set(() => void this.recheckEntry(entry), Math.min(ms, MAX_TIMER_MS));
  }

  private async recheckEntry(entry: Entry): Promise<void> {
    const held = entry.key;
    if (entry.released || held === null) return;
    let fresh: KeyRecord | undefined;
    try {
      fresh = await this.deps.store.findKey(held.accountId, held.id);
    } catch (e) {
      this.deps.onError?.(e);
      return;
    }
    if (entry.released) return;
    const verdict = streamVerdict(fresh, this.deps.clock());
    if (verdict === undefined) {
      // Still allowed: keep the fresh record (a changed expires_at re-arms the timer).
      entry.key = fresh!;
      this.armExpiry(entry, fresh!);
      return;
    }
    this.release(entry);
    entry.end.end(verdict.code, verdict.reason);
  }
}

/** Whether a stream of `key` may stay open at `now`: undefined if so, else its close code and reason. */
export function streamVerdict(
  key: KeyRecord | undefined,
  now: Date,
): { code: number; reason: string } | undefined {
  if (key === undefined) return { code: STREAM_END_CODES.unauthorized, reason: "API key not found" };
  try {
    authorize(key, "read", now);
    return undefined;
  } catch (e) {
    const err = e as ApiError;
    const code = err.status === 401 ? STREAM_END_CODES.unauthorized : STREAM_END_CODES.forbidden;
    return { code, reason: err.detail };
  }
}

function bump<K>(map: Map<K, number>, k: K, by: number): void {
  const n = (map.get(k) ?? 0) + by;
  if (n <= 0) map.delete(k);
  else map.set(k, n);
}

function unrefTimer(fn: () => void, ms: number): { cancel(): void } {
  const t = setTimeout(fn, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
}
