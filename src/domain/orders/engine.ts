/**
 * The order engine of one process: the book of open orders, evaluated on every state change of their mints
 * (the warm venue state tells which mint an account notification or a decoded trade moved; the evaluation runs
 * in the next microtask, once per mint however many accounts changed), the claim (open → triggered by one
 * conditional update: one process fires it), the fire through the trade service, and the settlement (filled,
 * failed with the reason, or open again for a bounded retry of a sell that failed on chain). A poll of the
 * store keeps the book in step with the other processes (orders they created, cancelled or retried); a
 * reclaim loop settles triggered orders whose process died (kill -9) from what their attempt recorded.
 */
import type { OrderRecord, Store } from "../../store/index.js";
import { isoNoZone } from "../../store/index.js";
import { interpretTradeRead } from "../../launch/trade-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import type { TradeConfigs } from "../trade/plan.js";
import type { VenueState } from "../watch/venue-state.js";
import { OrderBook, type BookOrder } from "./book.js";
import { orderAttemptKey, type EarlyCustody, type FireOutcome, type OrderOwner } from "./fire.js";
import { holdLease } from "./lease.js";
import { recordFire } from "./fire-activity.js";
import type { OrderSpec } from "./model.js";
import { observerOf, sizeOf } from "./observe.js";
import { specFromJson } from "./spec.js";
import type { SnipeBook, SnipeSpec } from "./snipe-engine.js";
import type { CopyBook } from "./copy-engine.js";
import { trackInflight } from "./held-orders.js";
import type { CopySpec } from "./copy.js";

/** Collaborators of the engine. */
export interface EngineDeps {
  store: Store;
  venues: Pick<VenueState, "lookup" | "pin" | "unpin" | "onMintChange">;
  configs: TradeConfigs;
  /** Fires a claimed order; `early` is its custody when `custody` started it beside the claim. */
  fire: (order: OrderRecord, spec: OrderSpec, early?: EarlyCustody) => Promise<FireOutcome>;
  /** The key's custody of a fire (read-only): started with the claim so the two round trips overlap. */
  custody?: (owner: OrderOwner, spec: OrderSpec) => EarlyCustody;
  /** This process's name in leases. */
  owner: string;
  clock: () => Date;
  /** How long a claim's lease lasts (a fire, confirmation included, ends well within it). */
  leaseMs: number;
  /** How often the store is polled for other processes' changes, expiries and dead processes' claims. */
  syncMs: number;
  onError: (e: unknown) => void;
  /**
   * Reads a mint's state once and offers it to the warm state: after a migration invalidated the mint's entries
   * (or while its subscription is stale) the evaluation has nothing to decide on until then.
   */
  refresh?: (mint: string) => Promise<void>;
  /** Told of each fire's end (tests and the bench wait on it). */
  onSettled?: (order: OrderRecord) => void;
  /** The standing snipe orders (fired from create events, not from a mint's state). */
  snipes?: SnipeBook;
  /** The standing copy orders (fired from followed wallets' trades). */
  copies?: CopyBook;
}

const PEAK_WRITE_MS = 1_000;
const REFRESH_MS = 1_000;
const CHAIN_FAILED = new Set(["failed", "expired"]);
const SETTLED_OK = new Set(["confirmed", "finalized"]);

/** The engine (see the file comment). */
export class OrderEngine {
  readonly book = new OrderBook();
  private readonly scheduled = new Set<string>();
  private readonly peakWrites = new Map<string, number>();
  private readonly refreshes = new Map<string, number>();
  /** Fires this process sent without a verdict yet (confirmation timed out): settled once reconciliation is. */
  private readonly pending = new Map<string, { order: OrderRecord; spec: OrderSpec; executionId: string }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly closers: (() => void)[] = [];
  private unsubscribe: (() => void) | undefined;
  private lastSync: string | undefined;
  /** Fires under way in this process. */
  readonly inflight = new Set<Promise<void>>();
  /** Orders this process claimed and has not settled yet: their lease may end while their fire is still slow. */
  private readonly firing = new Set<string>();

  constructor(private readonly deps: EngineDeps) {}

  /** Loads the live orders, re-watches their mints and starts the loops. */
  async start(): Promise<void> {
    this.unsubscribe = this.deps.venues.onMintChange((mint) => this.schedule(mint));
    this.lastSync = isoNoZone(this.deps.clock());
    for (const r of await this.deps.store.liveOrders()) if (r.state === "open") this.add(r);
    const loop = (f: () => Promise<void>): void => {
      const t = setInterval(() => void f().catch(this.deps.onError), this.deps.syncMs);
      t.unref();
      this.timers.push(t);
    };
    loop(() => this.sync());
    loop(() => this.reclaim());
  }

  /** Stops the loops (fires under way finish on their own). */
  close(): void {
    for (const t of this.timers.splice(0)) clearInterval(t);
    this.unsubscribe?.();
    for (const f of this.closers.splice(0)) f();
  }

  /** Every fire under way (orders and snipe buys): drained before the store closes. */
  pendingFires(): Promise<void>[] {
    return [...this.inflight, ...(this.deps.snipes?.inflight ?? []), ...(this.deps.copies?.inflight ?? [])];
  }

  /** Runs `f` when the engine closes. */
  onClose(f: () => void): void {
    this.closers.push(f);
  }

  /** Puts an open order in the book (replacing an older version) and evaluates its mint. */
  add(r: OrderRecord): void {
    if (r.kind === "snipe") {
      this.deps.snipes?.add(r, specFromJson(r.spec) as unknown as SnipeSpec);
      return;
    }
    if (r.kind === "copy") {
      this.deps.copies?.add(r, specFromJson(r.spec) as unknown as CopySpec);
      return;
    }
    const spec = specFromJson(r.spec);
    const size = sizeOf(spec.side, spec.amount, spec.sizeUnits);
    if (size === null) return;
    const had = this.book.hasMint(r.mint);
    const known = this.book.get(r.id);
    if (known !== undefined && known.version >= r.version) return;
    this.book.add({
      id: r.id,
      mint: r.mint,
      version: r.version,
      spec,
      size,
      peak: r.peak === null ? (spec.kind === "trailing_stop" ? spec.entryPrice : null) : BigInt(r.peak),
      expiresAtMs: r.expiresAt === null ? null : Date.parse(r.expiresAt),
      owner: { accountId: r.accountId, keyId: r.keyId, wallet: r.wallet },
    });
    if (!had) void this.deps.venues.pin(r.mint).catch(this.deps.onError);
    this.schedule(r.mint);
  }

  /** Takes an order out of the book (cancelled, fired, expired). */
  drop(id: string): void {
    if (this.deps.snipes?.drop(id) === true || this.deps.copies?.drop(id) === true) return;
    const gone = this.book.remove(id);
    if (gone?.mintEmpty === true) {
      this.deps.venues.unpin(gone.order.mint);
      this.refreshes.delete(gone.order.mint);
    }
  }

  /** Evaluates `mint` in the next microtask (once, however many of its accounts changed meanwhile). */
  schedule(mint: string): void {
    if (this.scheduled.has(mint) || !this.book.hasMint(mint)) return;
    this.scheduled.add(mint);
    queueMicrotask(() => {
      this.scheduled.delete(mint);
      this.evaluate(mint);
    });
  }

  /** Evaluates the orders of `mint` on its warm state (no read: stale state decides nothing). */
  evaluate(mint: string): void {
    const plan = tradeReadPlanOf(mint, mint, null);
    const hit = this.deps.venues.lookup(plan);
    if (hit === null) {
      this.refreshSoon(mint);
      return;
    }
    let read;
    try {
      read = interpretTradeRead(plan, hit.accounts);
    } catch {
      return;
    }
    const { crossed, peaks } = this.book.evaluate(mint, observerOf(read, this.deps.configs));
    for (const p of peaks) this.writePeak(p);
    for (const c of crossed) {
      this.drop(c.order.id);
      this.track(this.claimAndFire(c.order, c.trigger));
    }
  }

  /** One read of an unusable mint, at most once a second, then a new evaluation. */
  private refreshSoon(mint: string): void {
    const refresh = this.deps.refresh;
    const now = Date.now();
    if (refresh === undefined || now - (this.refreshes.get(mint) ?? 0) < REFRESH_MS) return;
    this.refreshes.set(mint, now);
    void refresh(mint)
      .then(() => this.schedule(mint))
      .catch(this.deps.onError);
  }

  private track(p: Promise<void>): void {
    trackInflight(this.inflight, p, this.deps.onError);
  }

  private writePeak(o: BookOrder): void {
    const now = Date.now();
    if (now - (this.peakWrites.get(o.id) ?? 0) < PEAK_WRITE_MS || o.peak === null) return;
    this.peakWrites.set(o.id, now);
    void this.deps.store.setOrderPeak(o.id, o.peak.toString()).catch(this.deps.onError);
  }

  private async claimAndFire(o: BookOrder, trigger: string): Promise<void> {
    // The custody reads (key, policy, 24 h spend) run while the claim's update does: they write nothing, and
    // their verdict is used only once the claim is won, so exactly-once still rests on the claim alone.
    const early = o.owner !== undefined ? this.deps.custody?.(o.owner, o.spec) : undefined;
    early?.verdict.catch(() => undefined);
    const claimed = await this.deps.store.transitionOrder({
      id: o.id,
      from: "open",
      version: o.version,
      to: "triggered",
      claim: { owner: this.deps.owner, leaseUntilMs: this.deps.clock().getTime() + this.deps.leaseMs },
      triggeredBy: trigger,
    });
    // Another process fired it, or it changed (cancelled, retried): the poll brings the book up to date.
    if (claimed === undefined) return;
    this.firing.add(claimed.id);
    const heartbeat = holdLease(this.deps, claimed.id);
    try {
      await this.fireClaimed(claimed, o, early);
    } finally {
      clearInterval(heartbeat);
      this.firing.delete(claimed.id);
    }
  }

  private async fireClaimed(claimed: OrderRecord, o: BookOrder, early?: EarlyCustody): Promise<void> {
    let outcome: FireOutcome;
    try {
      outcome = await this.deps.fire(claimed, o.spec, early);
    } catch (e) {
      // An unexpected error (not a refusal, not the chain's answer): if the attempt recorded an execution it may
      // have been sent, so the order follows that record; with none nothing was sent and the order fails.
      const key = orderAttemptKey(claimed.id, claimed.attempt);
      const executionId = await this.deps.store
        .findExecutionIdByKey(claimed.accountId, key)
        .catch(() => undefined);
      outcome =
        executionId !== undefined
          ? { kind: "pending", executionId }
          : { kind: "failed", detail: (e as Error).message, status: 500, executionId: null, extra: {} };
    }
    await this.settle(claimed, o.spec, await this.verdictOf(claimed, outcome));
  }

  /**
   * A failure answered after the send (a confirmation or upstream timeout) does not say the send failed: the
   * transaction may still land. Only the execution's final status decides; until then the order waits for
   * reconciliation like a pending fire (retrying now could land the sell twice, as the kill -9 soak showed).
   */
  private async verdictOf(order: OrderRecord, outcome: FireOutcome): Promise<FireOutcome> {
    if (outcome.kind !== "failed" || outcome.executionId === null || outcome.status === 403) return outcome;
    const e = await this.deps.store
      .findExecution(order.accountId, outcome.executionId)
      .catch(() => undefined);
    if (e === undefined || CHAIN_FAILED.has(e.status)) return outcome;
    if (SETTLED_OK.has(e.status)) return { kind: "filled", executionId: outcome.executionId };
    return { kind: "pending", executionId: outcome.executionId };
  }

  /** Writes a fire's outcome (only while this process holds the lease). */
  private async settle(order: OrderRecord, spec: OrderSpec, outcome: FireOutcome): Promise<void> {
    const base = { id: order.id, from: "triggered" as const, owner: this.deps.owner };
    let after: OrderRecord | undefined;
    if (outcome.kind === "pending") {
      // Reconciliation settles the execution; the poll then settles the order (or the reclaim loop, elsewhere).
      this.pending.set(order.id, { order, spec, executionId: outcome.executionId });
      return;
    }
    if (outcome.kind === "filled") {
      after = await this.deps.store.transitionOrder({
        ...base,
        to: "filled",
        error: null,
        executionId: outcome.executionId,
      });
      await this.activity(order, 200, null, outcome.executionId);
    } else if (outcome.kind === "refused") {
      after = await this.deps.store.transitionOrder({ ...base, to: "failed", error: outcome.refusal });
      await this.activity(order, 403, outcome.refusal.rule, null);
    } else {
      const error = { detail: outcome.detail, status: outcome.status, ...outcome.extra };
      // A sell that failed on chain (sent and refused by the program, or a blockhash that expired) is sent
      // again on fresh state, a bounded number of times; anything refused before sending fails the order.
      const sentAndFailed = outcome.executionId !== null && outcome.status !== 403;
      const retry = spec.side === "sell" && sentAndFailed && order.attempt <= spec.maxRetries;
      after = await this.deps.store.transitionOrder({
        ...base,
        to: retry ? "open" : "failed",
        error,
        ...(outcome.executionId !== null ? { executionId: outcome.executionId } : {}),
      });
      await this.activity(
        order,
        outcome.status,
        typeof outcome.extra.rule === "string" ? outcome.extra.rule : null,
        outcome.executionId,
      );
      if (retry && after !== undefined) this.add(after);
    }
    if (after !== undefined) this.deps.onSettled?.(after);
  }

  /** Records one firing of `order` in the account's activity log (with the policy rule that refused it). */
  async activity(
    order: OrderRecord,
    status: number,
    rule: string | null,
    executionId: string | null,
  ): Promise<void> {
    await recordFire(this.deps, order, { status, rule, executionId });
  }

  /** Brings the book in step with the store: other processes' orders, cancellations, retries; expiries. */
  async sync(): Promise<void> {
    const now = this.deps.clock();
    // Overlap the window: a row committed late with an earlier updated_at is still seen.
    const since = this.lastSync;
    this.lastSync = isoNoZone(new Date(now.getTime() - 2 * this.deps.syncMs));
    for (const r of await this.deps.store.liveOrders(since)) {
      if (r.state === "open") this.add(r);
      else this.drop(r.id);
    }
    for (const s of [...(this.deps.snipes?.list() ?? []), ...(this.deps.copies?.list() ?? [])]) {
      if (s.expiresAt === null || Date.parse(s.expiresAt) > now.getTime()) continue;
      this.drop(s.id);
      const r = await this.deps.store.transitionOrder({ id: s.id, from: "open", to: "expired" });
      if (r !== undefined) this.deps.onSettled?.(r);
    }
    for (const p of [...this.pending.values()])
      await this.settleFromExecution(p.order, p.spec, p.executionId);
    for (const o of [...this.book.orders()]) {
      if (o.expiresAtMs === null || o.expiresAtMs > now.getTime()) continue;
      this.drop(o.id);
      const r = await this.deps.store.transitionOrder({ id: o.id, from: "open", to: "expired" });
      if (r !== undefined) this.deps.onSettled?.(r);
    }
  }

  /**
   * Settles triggered orders whose lease ended (their process died mid-fire): an attempt that recorded no
   * execution was never sent (the record is written before the send) and goes back to open; one that did is
   * settled from the execution's status once reconciliation has settled it, never sent again.
   */
  async reclaim(): Promise<void> {
    const now = this.deps.clock().getTime();
    const rows = await this.deps.store.reclaimOrders(this.deps.owner, now, now + this.deps.leaseMs, 50);
    for (const r of rows) {
      // Its own fire still under way (slower than the lease, on a loaded machine): reclaiming renewed the lease;
      // reopening it here would send it a second time.
      if (this.firing.has(r.id)) continue;
      const spec = specFromJson(r.spec);
      const executionId = await this.deps.store.findExecutionIdByKey(
        r.accountId,
        orderAttemptKey(r.id, r.attempt),
      );
      if (executionId === undefined) {
        const back = await this.deps.store.transitionOrder({
          id: r.id,
          from: "triggered",
          owner: this.deps.owner,
          to: "open",
        });
        if (back !== undefined) this.add(back);
        continue;
      }
      await this.settleFromExecution(r, spec, executionId);
    }
  }

  /** Settles a triggered order from its attempt's execution once that is final; nothing while it is open. */
  private async settleFromExecution(r: OrderRecord, spec: OrderSpec, executionId: string): Promise<void> {
    const e = await this.deps.store.findExecution(r.accountId, executionId);
    if (e === undefined) return;
    if (SETTLED_OK.has(e.status)) {
      this.pending.delete(r.id);
      await this.settle(r, spec, { kind: "filled", executionId });
    } else if (CHAIN_FAILED.has(e.status)) {
      this.pending.delete(r.id);
      const error = e.error as { detail?: unknown } | null;
      const detail = typeof error?.detail === "string" ? error.detail : `execution ${e.status}`;
      await this.settle(r, spec, { kind: "failed", detail, status: 502, executionId, extra: {} });
    }
  }
}
