/**
 * The RPC PubSub methods clients use to confirm (signatureSubscribe, slotSubscribe, and their
 * unsubscribes), served over WebSocket on the RPC port. Notifications are checked on every slot and on
 * a short poll, so a transaction landed at send time is reported without waiting for a slot.
 */
import type { Ledger } from "../ledger/index.js";
import type { CallStats } from "./faults.js";
import { toJson } from "./json.js";
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

/** Subscription registry for every WebSocket connection of one localnet. */
export class PubSub {
  private nextId = 1;
  private readonly subs = new Map<number, SignatureSub | SlotSub>();
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly ledger: Ledger,
    private readonly stats: CallStats,
    pollMs = 50,
  ) {
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

  /** Attaches a connection: serves its JSON-RPC requests and drops its subscriptions on close. */
  attach(conn: WsConnection): void {
    conn.onMessage((text) => this.handle(conn, text));
    conn.onClose(() => {
      for (const [id, s] of this.subs) if (s.conn === conn) this.subs.delete(id);
    });
  }

  stop(): void {
    clearInterval(this.poll);
  }

  private handle(conn: WsConnection, text: string): void {
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
    this.stats.count("rpc", method);
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
    if (method === "signatureUnsubscribe" || method === "slotUnsubscribe") {
      const subId = params[0];
      return reply(typeof subId === "number" && this.subs.delete(subId));
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
