/**
 * The RPC PubSub methods (signatureSubscribe, slotSubscribe, accountSubscribe, logsSubscribe and their
 * unsubscribes), served over WebSocket on the RPC port. Signature notifications are checked on every slot
 * and on a short poll, so a transaction landed at send time is reported without waiting for a slot; account
 * and logs notifications follow every change (see pubsub-watch.ts).
 */
import type { Ledger } from "../ledger/index.js";
import type { CallStats } from "./faults.js";
import { RpcError, toJson } from "./json.js";
import { AccountLogsWatch } from "./pubsub-watch.js";
import type { WsConnection } from "./websocket.js";

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;
type Commitment = keyof typeof RANK;

interface SignatureSub {
  kind: "signature";
  conn: WsConnection;
  signature: string;
  commitment: Commitment;
}
interface SlotSub {
  kind: "slot";
  conn: WsConnection;
}
/** An account or logs subscription (its state lives in AccountLogsWatch). */
interface WatchSub {
  kind: "account" | "logs";
  conn: WsConnection;
}

const SUBSCRIBE = { accountSubscribe: "account", logsSubscribe: "logs" } as const;
const UNSUBSCRIBE = { accountUnsubscribe: "account", logsUnsubscribe: "logs" } as const;

/** Subscription registry for every WebSocket connection of one localnet. */
export class PubSub {
  private nextId = 1;
  private readonly subs = new Map<number, SignatureSub | SlotSub | WatchSub>();
  private readonly conns = new Set<WsConnection>();
  private readonly watch: AccountLogsWatch;
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly ledger: Ledger,
    private readonly stats: CallStats,
    pollMs = 50,
  ) {
    this.watch = new AccountLogsWatch(ledger);
    ledger.onSlot((slot) => {
      this.checkSignatures();
      for (const [id, s] of this.subs) {
        if (s.kind === "slot")
          this.notify(s.conn, "slotNotification", id, {
            parent: slot - 1n,
            root: slot > 32n ? slot - 32n : 0n,
            slot,
          });
      }
    });
    this.poll = setInterval(() => this.checkSignatures(), pollMs);
    this.poll.unref();
  }

  /**
   * Attaches a connection: serves its JSON-RPC requests and drops its subscriptions on close. `tag` (the
   * upgrade request's x-localnet-tag) counts its calls apart, as for HTTP calls.
   */
  attach(conn: WsConnection, tag?: string): void {
    this.conns.add(conn);
    conn.onMessage((text) => this.handle(conn, text, tag));
    conn.onClose(() => {
      this.conns.delete(conn);
      for (const [id, s] of this.subs) if (s.conn === conn) this.unsubscribe(id);
    });
  }

  /** Whether upgrade requests are refused (the admin's refusePubSub). */
  refusing = false;

  /** Refuses (or accepts again) new connections. */
  setRefusing(on: boolean): void {
    this.refusing = on;
  }

  /** Holds back (or releases) account notifications (the admin's holdAccountNotifications). */
  holdAccountNotifications(on: boolean): void {
    this.watch.setHolding(on);
  }

  /** How late account subscriptions are answered (the admin's delayAccountSubscribeAnswers). */
  private accountAnswerDelayMs = 0;

  /** Answers account subscriptions `ms` late (0: at once). */
  delayAccountSubscribeAnswers(ms: number): void {
    this.accountAnswerDelayMs = ms;
  }

  /** Closes every open connection (as a node restart would); returns how many. */
  dropConnections(): number {
    const all = [...this.conns];
    for (const c of all) c.close();
    return all.length;
  }

  /** Open connections and live subscriptions by kind. */
  counts(): { connections: number; subscriptions: Record<string, number> } {
    const subscriptions: Record<string, number> = {};
    for (const s of this.subs.values()) subscriptions[s.kind] = (subscriptions[s.kind] ?? 0) + 1;
    return { connections: this.conns.size, subscriptions };
  }

  private unsubscribe(id: number): boolean {
    const s = this.subs.get(id);
    if (s === undefined) return false;
    this.subs.delete(id);
    if (s.kind === "account") this.watch.unsubscribeAccount(id);
    if (s.kind === "logs") this.watch.unsubscribeLogs(id);
    return true;
  }

  stop(): void {
    clearInterval(this.poll);
  }

  private handle(conn: WsConnection, text: string, tag?: string): void {
    let req: { id?: unknown; method?: unknown; params?: unknown };
    try {
      req = JSON.parse(text) as typeof req;
    } catch {
      conn.send(toJson({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }));
      return;
    }
    const id = req.id ?? null;
    const params = Array.isArray(req.params) ? req.params : [];
    const method = typeof req.method === "string" ? req.method : "invalid";
    this.stats.count("rpc", method, tag);
    const reply = (result: unknown) => conn.send(toJson({ jsonrpc: "2.0", result, id }));
    const fail = (code: number, message: string) =>
      conn.send(toJson({ jsonrpc: "2.0", error: { code, message }, id }));
    if (method === "signatureSubscribe") {
      const signature = params[0];
      if (typeof signature !== "string") return fail(-32602, "Invalid params: signature");
      const c = (params[1] as { commitment?: string } | undefined)?.commitment ?? "finalized";
      const commitment: Commitment = c in RANK ? (c as Commitment) : "finalized";
      const subId = this.nextId++;
      this.subs.set(subId, { kind: "signature", conn, signature, commitment });
      reply(subId);
      this.checkSignatures();
      return;
    }
    if (method === "slotSubscribe") {
      const subId = this.nextId++;
      this.subs.set(subId, { kind: "slot", conn });
      return reply(subId);
    }
    if (method === "accountSubscribe" || method === "logsSubscribe") {
      const subId = this.nextId++;
      const kind = SUBSCRIBE[method];
      const notify = (m: string, result: unknown) => this.notify(conn, m, subId, result);
      try {
        if (kind === "account") this.watch.subscribeAccount(subId, params, notify);
        else this.watch.subscribeLogs(subId, params, notify);
      } catch (e) {
        if (e instanceof RpcError) return fail(e.code, e.message);
        throw e;
      }
      this.subs.set(subId, { kind, conn });
      const delay = kind === "account" ? this.accountAnswerDelayMs : 0;
      if (delay > 0) {
        setTimeout(() => reply(subId), delay).unref();
        return;
      }
      return reply(subId);
    }
    if (method === "accountUnsubscribe" || method === "logsUnsubscribe") {
      const subId = params[0];
      const s = typeof subId === "number" ? this.subs.get(subId) : undefined;
      return reply(s?.kind === UNSUBSCRIBE[method] && s.conn === conn && this.unsubscribe(subId as number));
    }
    if (method === "signatureUnsubscribe" || method === "slotUnsubscribe") {
      const subId = params[0];
      return reply(typeof subId === "number" && this.unsubscribe(subId));
    }
    fail(-32601, "Method not found");
  }

  private notify(conn: WsConnection, method: string, subscription: number, result: unknown): void {
    conn.send(toJson({ jsonrpc: "2.0", method, params: { result, subscription } }));
  }

  private checkSignatures(): void {
    for (const [id, s] of this.subs) {
      if (s.kind !== "signature") continue;
      const st = this.ledger.signatureStatus(s.signature);
      if (st === null || RANK[st.confirmationStatus] < RANK[s.commitment]) continue;
      this.subs.delete(id);
      this.notify(s.conn, "signatureNotification", id, {
        context: { slot: this.ledger.slot() },
        value: { err: st.err },
      });
    }
  }
}
