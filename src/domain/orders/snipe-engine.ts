/**
 * The snipe orders of one process: each create event the market feed decodes is matched against the open snipe
 * orders in memory; a match is claimed by a row per (order, mint) (exactly once across processes, within the
 * order's hourly cap) and bought through the same fire as the other orders (custody and policy checked at
 * fire), its state taken from the create event itself (`state_source: "event"`, no read) when the wallet's own
 * account is warm, which adding the order arranges. The execution's Idempotency-Key is `order:<id>:<mint>`.
 * Every fire ends on its row (its execution, the policy's refusal, or failed with its reason when nothing was
 * recorded); a claim whose process ended before that is settled by the reconciliation after the lease.
 */
import type { OrderRecord, Store } from "../../store/index.js";
import type { CreatedNotice } from "../watch/created-mints.js";
import type { FireOutcome } from "./fire.js";
import { fireRecordOf, outcomeOfKeyedError, reconciledFire } from "./fire-claim.js";
import { standingTradeSpec, type OrderSpec } from "./model.js";
import { holdNewest, trackInflight, type HeldOrder } from "./held-orders.js";
import { snipeMatches, type SnipeRequest, type SnipeRule } from "./snipe.js";

/** A snipe order's stored parameters. */
export interface SnipeSpec {
  readonly kind: "snipe";
  readonly rule: SnipeRule;
  readonly lamports: bigint;
  readonly amountText: string;
  readonly slippageBps: bigint;
  readonly priorityFeeLamports: bigint | null;
  readonly tipLamports: bigint | null;
}

/** The parameters a parsed snipe request stores. */
export function snipeSpecOf(req: SnipeRequest): SnipeSpec {
  return {
    kind: "snipe",
    rule: req.rule,
    lamports: req.lamports,
    amountText: req.amountText,
    slippageBps: req.slippageBps,
    priorityFeeLamports: req.fees.priorityFeeLamports ?? null,
    tipLamports: req.fees.tipLamports ?? null,
  };
}

/** The mint column of a snipe order (it follows new mints, none in particular). */
export const SNIPE_MINT = "*";
const HOUR_MS = 3_600_000;

/** The Idempotency-Key of a snipe order's buy of one mint. */
export const snipeFireKey = (orderId: string, mint: string): string => `order:${orderId}:${mint}`;

/** The buy a snipe order sends for `mint`, as the other orders' fire takes it. */
export function snipeBuySpec(spec: SnipeSpec, mint: string): OrderSpec {
  return standingTradeSpec(spec, "buy", mint, spec.lamports, spec.amountText);
}

/** Collaborators of the snipe book. */
export interface SnipeDeps {
  store: Pick<
    Store,
    | "claimOrderFire"
    | "setOrderFireExecution"
    | "refuseOrderFire"
    | "failOrderFire"
    | "unsettledOrderFires"
    | "reconcileOrderFire"
    | "findExecutionIdByKey"
    | "findExecution"
  >;
  fire: (order: OrderRecord, spec: OrderSpec, key: string) => Promise<FireOutcome>;
  /** Keeps the wallet's own account warm (a buy from the create event needs its lamports). */
  warmWallet: (wallet: string) => Promise<void>;
  clock: () => Date;
  onError: (e: unknown) => void;
  /** Told of each fire's end, with its mint and outcome (tests wait on it). */
  onFired?: (order: OrderRecord, mint: string, outcome: FireOutcome) => void;
}

/** The open snipe orders of this process (see the file comment). */
export class SnipeBook {
  private readonly orders = new Map<string, HeldOrder<SnipeSpec>>();
  readonly inflight = new Set<Promise<void>>();
  /** Claims of this process whose fire is under way (`order:<id>:<mint>`): never reconciled from here. */
  private readonly firing = new Set<string>();
  private reconciling = false;

  constructor(private readonly deps: SnipeDeps) {}

  /** Adds (or replaces) an open snipe order. */
  add(record: OrderRecord, spec: SnipeSpec): void {
    if (!holdNewest(this.orders, record, spec)) return;
    void this.deps.warmWallet(record.wallet).catch(this.deps.onError);
  }

  /** Takes an order out (cancelled, expired). */
  drop(id: string): boolean {
    return this.orders.delete(id);
  }

  /** The open snipe orders held. */
  list(): OrderRecord[] {
    return [...this.orders.values()].map((o) => o.record);
  }

  /** Matches a created mint against every open snipe order; fires each match. */
  onCreate(n: CreatedNotice): void {
    const now = this.deps.clock().getTime();
    for (const o of this.orders.values()) {
      const exp = o.record.expiresAt === null ? null : Date.parse(o.record.expiresAt);
      if (exp !== null && exp <= now) continue;
      if (!snipeMatches(o.spec.rule, n)) continue;
      trackInflight(this.inflight, this.fire(o.record, o.spec, n.event.mint), this.deps.onError);
    }
  }

  private async fire(record: OrderRecord, spec: SnipeSpec, mint: string): Promise<void> {
    const now = this.deps.clock().getTime();
    const claim = await this.deps.store.claimOrderFire({
      orderId: record.id,
      accountId: record.accountId,
      mint,
      lamports: spec.lamports,
      atMs: now,
      window: spec.rule.maxPerHour === null ? null : { sinceMs: now - HOUR_MS, max: spec.rule.maxPerHour },
    });
    if (claim === "closed") this.orders.delete(record.id);
    if (claim !== "claimed") return;
    const key = snipeFireKey(record.id, mint);
    this.firing.add(key);
    try {
      // A fire that threw is settled here too (from its record, if any), not left claimed until reconciliation.
      const outcome = await this.deps.fire(record, snipeBuySpec(spec, mint), key).catch((e: unknown) => {
        this.deps.onError(e);
        return outcomeOfKeyedError(this.deps.store, e, record.accountId, key);
      });
      await this.settle(record.id, mint, outcome);
      this.deps.onFired?.(record, mint, outcome);
    } finally {
      this.firing.delete(key);
    }
  }

  /**
   * Writes a fire's end on its row: the execution it recorded; a policy refusal (the row keeps it, so the mint is
   * not used up, nor an hourly slot); or, with nothing recorded so nothing sent, failed with its reason.
   */
  private async settle(orderId: string, mint: string, outcome: FireOutcome): Promise<void> {
    if (outcome.kind === "refused") return this.deps.store.refuseOrderFire(orderId, mint, outcome.refusal);
    const settled = fireRecordOf(outcome);
    if (settled.executionId !== null)
      await this.deps.store.setOrderFireExecution(orderId, mint, settled.executionId, settled.outcome);
    else await this.deps.store.failOrderFire(orderId, mint, settled.outcome);
  }

  /**
   * Settles the claims a process left unsettled when it ended between claim and settlement (kill -9), once
   * older than `beforeMs`, as CopyBook.reconcile does: from the execution it recorded (never sent again), or
   * `dropped:process_ended` without one (not sent late: the token's launch moment has passed). Returns how many
   * this call settled.
   */
  async reconcile(beforeMs: number): Promise<number> {
    // One pass at a time in a process (the loop that calls it does not wait for it).
    if (this.reconciling) return 0;
    this.reconciling = true;
    try {
      let n = 0;
      for (const f of await this.deps.store.unsettledOrderFires(beforeMs, 50)) {
        const key = snipeFireKey(f.orderId, f.mint);
        if (this.firing.has(key)) continue;
        const { executionId, outcome } = await reconciledFire(this.deps.store, f.accountId, key);
        if (await this.deps.store.reconcileOrderFire(f.orderId, f.mint, executionId, outcome)) n++;
      }
      return n;
    } finally {
      this.reconciling = false;
    }
  }
}
