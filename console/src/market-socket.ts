/**
 * The market stream (GET /v1/stream, a WebSocket): authenticated by a first `auth` message, since a browser
 * cannot set headers on a WebSocket and the key must not go in its URL. A connection the server or the network
 * ends is opened again with a growing delay, and the subscriptions are sent again: the stream has no cursor, so
 * resuming means following the same things from the moment it is back (`onResume` lets a page re-read what a
 * gap may have changed).
 */

/** A decoded market event or a reply (subscribed, error…), as the server sends it. */
export type MarketMessage = Record<string, unknown> & { type: string };

/** The connection as shown on the page. */
export interface MarketState {
  /** connecting, live, reconnecting (a retry is planned) or refused (no retry: the key is refused). */
  phase: "connecting" | "live" | "reconnecting" | "refused";
  /** The last close, as `code: reason`, when there was one. */
  lastClose?: string;
  /** When the next attempt starts (ms since the epoch), while reconnecting. */
  retryAt?: number;
  /** Attempts since the stream was last live. */
  attempt: number;
  /** Times the stream came back after a drop. */
  resumes?: number;
}

/** The text of a state, for the page. */
export function stateText(s: MarketState): string {
  if (s.phase === "live")
    return s.resumes === undefined || s.lastClose === undefined
      ? "live"
      : `live (back after close ${s.lastClose}; ${s.resumes} reconnect${s.resumes === 1 ? "" : "s"})`;
  if (s.phase === "connecting") return s.attempt > 0 ? `connecting (attempt ${s.attempt + 1})` : "connecting";
  const why = s.lastClose !== undefined ? ` after close ${s.lastClose}` : "";
  if (s.phase === "refused") return `refused${why}`;
  const wait = s.retryAt === undefined ? 0 : Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000));
  return `reconnecting in ${wait} s${why}`;
}

/** Closes that a retry cannot fix: an unknown, revoked or expired key (4401), or one without `read` (4403). */
function isFinal(code: number, reason: string): boolean {
  return code === 4401 || (code === 4403 && reason.includes("scope"));
}
/** Closes worth retrying only slowly: a frozen key or account (4403), a cap (4429). */
const SLOW_CODES = new Set([4403, 4429]);
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** The delay before retry number `attempt` (0-based): doubling from 0.5 s up to 30 s, with ±20 % jitter. */
export function retryDelay(attempt: number, code: number, random: () => number = Math.random): number {
  const base = SLOW_CODES.has(code) ? MAX_DELAY_MS : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}

const SUBSCRIBE = /^subscribe/;
const UNSUBSCRIBE = /^unsubscribe/;

/** Opens the stream; `send` queues until authenticated. Returns the controls. */
export function openMarket(
  key: string,
  onMessage: (m: MarketMessage) => void,
  onState: (s: MarketState) => void,
  onResume: () => void = () => undefined,
): { send(msg: Record<string, unknown>): void; close(): void } {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // What the page follows, by method and key: sent again on every new connection.
  const follows = new Map<string, Set<string>>();
  const queue: string[] = [];
  let ws: WebSocket | undefined;
  let ready = false;
  let closed = false;
  let wasLive = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let state: MarketState = { phase: "connecting", attempt: 0 };
  const setState = (s: MarketState) => {
    state = s;
    onState(s);
  };

  const remember = (msg: Record<string, unknown>) => {
    const method = String(msg.method);
    const keys = Array.isArray(msg.keys) ? msg.keys.map(String) : [""];
    if (SUBSCRIBE.test(method)) {
      const set = follows.get(method) ?? new Set<string>();
      for (const k of keys) set.add(k);
      follows.set(method, set);
    } else if (UNSUBSCRIBE.test(method)) {
      const set = follows.get(method.replace(UNSUBSCRIBE, "subscribe"));
      for (const k of keys) set?.delete(k);
    }
  };

  const resubscribe = (): string[] =>
    [...follows].flatMap(([method, keys]) => {
      if (keys.size === 0) return [];
      const real = [...keys].filter((k) => k !== "");
      return [JSON.stringify(real.length === 0 ? { method } : { method, keys: real })];
    });

  const connect = () => {
    ready = false;
    const socket = new WebSocket(`${scheme}://${location.host}/v1/stream`);
    ws = socket;
    socket.onopen = () => socket.send(JSON.stringify({ method: "auth", api_key: key }));
    socket.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as MarketMessage;
      if (msg.type === "authenticated") {
        ready = true;
        const resumed = wasLive;
        wasLive = true;
        setState(
          resumed
            ? { phase: "live", attempt: 0, lastClose: state.lastClose, resumes: (state.resumes ?? 0) + 1 }
            : { phase: "live", attempt: 0 },
        );
        // The subscriptions (what was sent before, and what was asked while away), then the other messages.
        for (const q of [...resubscribe(), ...queue.splice(0)]) socket.send(q);
        if (resumed) onResume();
        return;
      }
      onMessage(msg);
    };
    socket.onclose = (e) => {
      if (ws !== socket) return;
      ready = false;
      if (closed) return;
      const lastClose = `${e.code}${e.reason !== "" ? `: ${e.reason}` : ""}`;
      if (isFinal(e.code, e.reason)) {
        setState({ phase: "refused", lastClose, attempt: state.attempt, resumes: state.resumes });
        return;
      }
      const wait = retryDelay(state.attempt, e.code);
      setState({
        phase: "reconnecting",
        lastClose,
        retryAt: Date.now() + wait,
        attempt: state.attempt + 1,
        resumes: state.resumes,
      });
      timer = setTimeout(() => {
        setState({ ...state, phase: "connecting", retryAt: undefined });
        connect();
      }, wait);
    };
  };

  setState(state);
  connect();
  return {
    send(msg) {
      const text = JSON.stringify(msg);
      const method = String(msg.method);
      if (SUBSCRIBE.test(method) || UNSUBSCRIBE.test(method)) remember(msg);
      if (ready) ws?.send(text);
      // Subscriptions are sent from `follows` once authenticated; other messages wait in the queue.
      else if (!SUBSCRIBE.test(method) && !UNSUBSCRIBE.test(method)) queue.push(text);
    },
    close: () => {
      closed = true;
      clearTimeout(timer);
      ws?.close();
    },
  };
}
