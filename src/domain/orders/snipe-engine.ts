/**
 * The snipe orders of one process: each create event the market feed decodes is matched against the open snipe
 * orders in memory; a match is claimed by a row per (order, mint) (exactly once across processes, within the
 * order's hourly cap) and bought through the same fire as the other orders (custody and policy checked at
 * fire), its state taken from the create event itself (`state_source: "event"`, no read) when the wallet's own
 * account is warm, which adding the order arranges. The execution's Idempotency-Key is `order:<id>:<mint>`.
 */
import type { OrderRecord, Store } from "../../store/index.js";
import type { CreatedNotice } from "../watch/created-mints.js";
import type { FireOutcome } from "./fire.js";
import { standingTradeSpec, type OrderSpec } from "./model.js";
import { holdNewest, trackInflight, type HeldOrder } from "./held-orders.js";
import { snipeMatches, type SnipeRule } from "./snipe.js";

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
  store: Pick<Store, "claimOrderFire" | "setOrderFireExecution" | "refuseOrderFire">;
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
    const outcome = await this.deps.fire(record, snipeBuySpec(spec, mint), snipeFireKey(record.id, mint));
    const executionId =
      outcome.kind === "filled" || outcome.kind === "pending"
        ? outcome.executionId
        : outcome.kind === "failed"
          ? outcome.executionId
          : null;
    if (executionId !== null) await this.deps.store.setOrderFireExecution(record.id, mint, executionId);
    // A policy refusal sent nothing: the row keeps the refusal, so the mint is not used up (nor an hourly slot).
    else if (outcome.kind === "refused")
      await this.deps.store.refuseOrderFire(record.id, mint, outcome.refusal);
    this.deps.onFired?.(record, mint, outcome);
  }
}
