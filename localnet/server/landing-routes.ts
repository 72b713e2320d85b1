/**
 * Several senders, each like a real route (Jito, Helius Sender, Nozomi…): its own tip accounts and minimum tip,
 * its latency, the share of accepted transactions it never lands (drop rate) and how many slots after the
 * acceptance it lands the others (a delay drawn from [min, max]). Served at /route/<name>; set by
 * /admin/routes. A transaction whose durable nonce another route's variant already advanced fails its pre-check
 * when due and is dropped, as on mainnet: at most one variant of a raced trade lands.
 */
import type { Ledger } from "../ledger/index.js";
import { TransactionRejected } from "../ledger/index.js";
import { staticTipLamports } from "../ledger/wire.js";
import { Faults } from "./faults.js";
import { RpcError } from "./json.js";
import { decodeParam, type RpcHandler } from "./rpc-methods.js";
import { rejectionToRpcError } from "./submitter.js";

/** How a route behaves. */
export interface RouteBehaviour {
  /** Share of accepted transactions that never land, in [0, 1]. */
  dropRate: number;
  /** Landing delay in slots after acceptance, drawn uniformly from [min, max] (0 = lands on acceptance). */
  slotDelay: readonly [number, number];
  /** Round-trip latency of each call in milliseconds. */
  latencyMs: number;
  minTipLamports: bigint;
}

/** A route's settings and counters as /admin/routes shows them. */
export interface RouteInfo {
  name: string;
  url: string;
  tip_accounts: string[];
  min_tip_lamports: string;
  drop_rate: number;
  slot_delay: [number, number];
  latency_ms: number;
  accepted: number;
  landed: number;
  dropped: number;
  /** Due but no longer valid when due (its nonce used by another variant, its blockhash expired). */
  expired: number;
  rejected: number;
}

/** One route: its methods, its own fault switches (latency), its settings and counters. */
export interface LandingRoute {
  name: string;
  tipAccounts: string[];
  behaviour: RouteBehaviour;
  faults: Faults;
  methods: Map<string, RpcHandler>;
  counts: { accepted: number; landed: number; dropped: number; expired: number; rejected: number };
}

/** The default four routes: drop rates 10/20/30/40 % and slot delays 0-3 (the landing benchmark's set-up). */
export const DEFAULT_ROUTES: readonly { name: string; behaviour: RouteBehaviour }[] = [
  { name: "route-a", behaviour: behaviourOf(0.1, [0, 3]) },
  { name: "route-b", behaviour: behaviourOf(0.2, [0, 3]) },
  { name: "route-c", behaviour: behaviourOf(0.3, [0, 3]) },
  { name: "route-d", behaviour: behaviourOf(0.4, [0, 3]) },
];

function behaviourOf(dropRate: number, slotDelay: [number, number]): RouteBehaviour {
  return { dropRate, slotDelay, latencyMs: 0, minTipLamports: 1_000n };
}

function invalidRequest(detail: string): RpcError {
  return new RpcError(-32602, `Invalid request: ${detail}`, undefined, 400);
}

/** Validates a partial behaviour from /admin/routes; throws with a useful message. */
export function parseBehaviour(body: Record<string, unknown>, current: RouteBehaviour): RouteBehaviour {
  const out = { ...current };
  if (body.drop_rate !== undefined) {
    const d = body.drop_rate;
    if (typeof d !== "number" || !(d >= 0 && d <= 1)) throw new Error("drop_rate must be a number in [0, 1]");
    out.dropRate = d;
  }
  if (body.slot_delay !== undefined) {
    const s = body.slot_delay;
    if (
      !Array.isArray(s) ||
      s.length !== 2 ||
      !s.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 150) ||
      (s[0] as number) > (s[1] as number)
    )
      throw new Error("slot_delay must be [min, max], integers 0..150, min <= max");
    out.slotDelay = [s[0] as number, s[1] as number];
  }
  if (body.latency_ms !== undefined) {
    const l = body.latency_ms;
    if (typeof l !== "number" || !Number.isInteger(l) || l < 0 || l > 10_000)
      throw new Error("latency_ms must be an integer 0..10000");
    out.latencyMs = l;
  }
  if (body.min_tip_lamports !== undefined) {
    const m = body.min_tip_lamports;
    if (typeof m !== "number" || !Number.isInteger(m) || m < 0)
      throw new Error("min_tip_lamports must be a non-negative integer");
    out.minTipLamports = BigInt(m);
  }
  return out;
}

/** The routes of one localnet, landing what they accepted as the slots advance. */
export class LandingRoutes {
  readonly routes = new Map<string, LandingRoute>();
  private pending: { due: bigint; wire: Uint8Array; route: LandingRoute }[] = [];

  constructor(
    private readonly ledger: Ledger,
    tipAccountsOf: (name: string) => string[],
    private readonly random: () => number = Math.random,
    defs: readonly { name: string; behaviour: RouteBehaviour }[] = DEFAULT_ROUTES,
  ) {
    for (const d of defs) {
      const route: LandingRoute = {
        name: d.name,
        tipAccounts: tipAccountsOf(d.name),
        behaviour: { ...d.behaviour },
        faults: new Faults(),
        methods: new Map(),
        counts: { accepted: 0, landed: 0, dropped: 0, expired: 0, rejected: 0 },
      };
      route.methods.set("getHealth", () => "ok");
      route.methods.set("sendTransaction", (p) => this.send(route, p));
      this.routes.set(d.name, route);
    }
    ledger.onSlot((slot) => this.landDue(slot));
  }

  /** Replaces part of a route's behaviour; throws for an unknown route or a bad value. */
  set(name: string, body: Record<string, unknown>): RouteInfo {
    const route = this.routes.get(name);
    if (route === undefined)
      throw new Error(`no route ${name} (routes: ${[...this.routes.keys()].join(", ")})`);
    route.behaviour = parseBehaviour(body, route.behaviour);
    route.faults.set(route.behaviour.latencyMs > 0 ? { latencyMs: route.behaviour.latencyMs } : {});
    return this.info(route);
  }

  /** Every route's settings and counters. */
  list(): RouteInfo[] {
    return [...this.routes.values()].map((r) => this.info(r));
  }

  /** Zeroes the counters. */
  resetCounts(): void {
    for (const r of this.routes.values()) {
      r.counts = { accepted: 0, landed: 0, dropped: 0, expired: 0, rejected: 0 };
    }
  }

  private info(r: LandingRoute): RouteInfo {
    const b = r.behaviour;
    return {
      name: r.name,
      url: `/route/${r.name}`,
      tip_accounts: [...r.tipAccounts],
      min_tip_lamports: b.minTipLamports.toString(),
      drop_rate: b.dropRate,
      slot_delay: [b.slotDelay[0], b.slotDelay[1]],
      latency_ms: b.latencyMs,
      ...r.counts,
    };
  }

  private send(route: LandingRoute, p: unknown[]): string {
    const opts = (p[1] ?? {}) as { encoding?: string; skipPreflight?: unknown };
    if (opts.skipPreflight !== true) throw invalidRequest("skipPreflight must be true");
    const wire = decodeParam(p[0], opts.encoding);
    let signature: string;
    try {
      const decoded = this.ledger.decodeClientTransaction(wire);
      signature = decoded.id;
      const tip = staticTipLamports(decoded.tx, new Set(route.tipAccounts));
      if (tip < route.behaviour.minTipLamports) {
        route.counts.rejected++;
        throw invalidRequest(
          `transaction must transfer at least ${route.behaviour.minTipLamports} lamports to one of this route's ` +
            `tip accounts (found ${tip})`,
        );
      }
      // Like a real sender (skipPreflight), nothing else is checked on acceptance: a transaction whose blockhash
      // or nonce is no longer valid is accepted and then never lands (counted as expired when due).
    } catch (e) {
      if (e instanceof TransactionRejected) {
        route.counts.rejected++;
        throw rejectionToRpcError(e);
      }
      throw e;
    }
    route.counts.accepted++;
    if (this.random() < route.behaviour.dropRate) {
      route.counts.dropped++;
      return signature;
    }
    const [min, max] = route.behaviour.slotDelay;
    const delay = min + Math.floor(this.random() * (max - min + 1));
    if (delay === 0) this.land(route, wire);
    else this.pending.push({ due: this.ledger.slot() + BigInt(delay), wire, route });
    return signature;
  }

  private land(route: LandingRoute, wire: Uint8Array): void {
    try {
      this.ledger.processTransaction(wire);
      route.counts.landed++;
    } catch (e) {
      // Its nonce advanced by another variant (or expired, or a duplicate): dropped like on mainnet.
      if (!(e instanceof TransactionRejected)) throw e;
      route.counts.expired++;
    }
  }

  private landDue(slot: bigint): void {
    if (this.pending.length === 0) return;
    const due = this.pending.filter((p) => p.due <= slot);
    this.pending = this.pending.filter((p) => p.due > slot);
    for (const p of due) this.land(p.route, p.wire);
  }
}
