/**
 * The order engine of one process: the book of open orders, evaluated on every state change of their mints (in
 * the next microtask, once per mint however many accounts changed), the fire through the trade service whose
 * execution record claims the order in the same commit (open → triggered, conditional: one process fires it),
 * and the settlement (filled, failed with the reason, or open again for a bounded retry of a sell that failed
 * on chain). A poll keeps the book in step with the other processes; a reclaim loop settles triggered orders
 * whose process died (kill -9) from the execution their claim recorded.
 */
import type { OrderRecord } from "../../store/index.js";
import { isoNoZone } from "../../store/index.js";
import { interpretTradeRead } from "../../launch/trade-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import { venueStateOf } from "../trade/plan.js";
import { OrderBook, type BookOrder } from "./book.js";
import type { EngineDeps } from "./engine-deps.js";
import { orderAttemptKey, type FireOutcome } from "./fire.js";
import { outcomeOfError, recordClaim, failureOf } from "./fire-claim.js";
import { holdLease } from "./lease.js";
import { recordFire } from "./fire-activity.js";
import type { OrderSpec } from "./model.js";
import { observerOn, sizeOf, stateKey } from "./observe.js";
import { specFromJson } from "./spec.js";
import type { SnipeSpec } from "./snipe-engine.js";
import { trackInflight } from "./held-orders.js";
import type { CopySpec } from "./copy.js";

export type { EngineDeps } from "./engine-deps.js";

const PEAK_WRITE_MS = 1_000;
const FULL_SYNC_MS = 10_000;
const REFRESH_MS = 1_000;
const MAX_REFRESH_DOUBLINGS = 6;
const CHAIN_FAILED = new Set(["failed", "expired"]);
const SETTLED_OK = new Set(["confirmed", "finalized"]);

/** The engine (see the file comment). */
export class OrderEngine {
  readonly book = new OrderBook();
  private readonly scheduled = new Set<string>();
  private readonly peakWrites = new Map<string, number>();
  /** Per unusable mint: when it was last read, and how many reads since its state was last usable. */
  private readonly refreshes = new Map<string, { at: number; reads: number }>();
  /** Mints whose evaluation waits for the end of their read's second (refreshSoon). */
  private readonly retrying = new Map<string, NodeJS.Timeout>();
  /** Fires this process sent without a verdict yet (confirmation timed out): settled once reconciliation is. */
  private readonly pending = new Map<string, { order: OrderRecord; spec: OrderSpec; executionId: string }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly closers: (() => void)[] = [];
  private unsubscribe: (() => void) | undefined;
  private lastSync: string | undefined;
  private lastFullSync = 0;
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
    for (const t of this.retrying.values()) clearTimeout(t);
    this.retrying.clear();
    this.unsubscribe?.();
    for (const f of this.closers.splice(0)) f();
  }

  /** Every fire under way (orders and snipe buys): drained before the store closes. */
  pendingFires(): Promise<void>[] {
    return [...this.inflight, ...(this.deps.snipes?.inflight ?? []), ...(this.deps.copies?.inflight ?? [])];
  }

  /** Runs `f` when the engine closes. */
  readonly onClose = (f: () => void): number => this.closers.push(f);

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
    // Known at this version (the full sync reads every live order again): nothing to parse.
    const known = this.book.get(r.id);
    if (known !== undefined && known.version >= r.version) return;
    const spec = specFromJson(r.spec);
    const size = sizeOf(spec.side, spec.amount, spec.sizeUnits);
    if (size === null) return;
    const had = this.book.hasMint(r.mint);
    this.book.add({
      id: r.id,
      mint: r.mint,
      version: r.version,
      attempt: r.attempt,
      spec,
      size,
      peak: r.peak === null ? (spec.kind === "trailing_stop" ? spec.entryPrice : null) : BigInt(r.peak),
      expiresAtMs: r.expiresAt === null ? null : Date.parse(r.expiresAt),
      owner: { accountId: r.accountId, keyId: r.keyId, wallet: r.wallet },
    });
    this.deps.prepare?.(r.id, spec, { accountId: r.accountId, keyId: r.keyId, wallet: r.wallet });
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
      clearTimeout(this.retrying.get(gone.order.mint));
      this.retrying.delete(gone.order.mint);
    }
  }

  /** Whether a changed mint waits for its evaluation (the market feed lets it go first: MarketFeed.yieldTo). */
  readonly evaluating = (): boolean => this.scheduled.size > 0;

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
    if (this.refreshes.size > 0) this.refreshes.delete(mint);
    let read;
    try {
      read = interpretTradeRead(plan, hit.accounts);
    } catch {
      return;
    }
    const venue = venueStateOf(read, this.deps.configs);
    const { crossed, peaks } = this.book.evaluate(
      mint,
      observerOn(venue, read),
      stateKey(venue, read.decimals),
    );
    for (const p of peaks) this.writePeak(p);
    for (const c of crossed) {
      this.drop(c.order.id);
      this.track(this.claimAndFire(c.order, c.trigger));
    }
  }

  /**
   * One read of an unusable mint, then a new evaluation; a miss within the read's interval evaluates again at the
   * interval's end. A read offered before the mint's subscriptions are live is not kept, and their seed tells no
   * listener: without the later evaluation an order on a quiet mint could wait for a trade that never comes. The
   * interval is a second, doubling with each read that left the mint unusable (at most 64 s), so a mint that never
   * becomes usable costs a read a minute.
   */
  private refreshSoon(mint: string): void {
    const refresh = this.deps.refresh;
    if (refresh === undefined) return;
    const now = Date.now();
    const last = this.refreshes.get(mint);
    const wait =
      last === undefined
        ? 0
        : REFRESH_MS * 2 ** Math.min(last.reads - 1, MAX_REFRESH_DOUBLINGS) - (now - last.at);
    if (wait > 0) {
      if (this.retrying.has(mint)) return;
      const t = setTimeout(() => {
        this.retrying.delete(mint);
        this.schedule(mint);
      }, wait);
      t.unref();
      this.retrying.set(mint, t);
      return;
    }
    this.refreshes.set(mint, { at: now, reads: (last?.reads ?? 0) + 1 });
    void refresh(mint)
      .then(() => this.schedule(mint))
      .catch(this.deps.onError);
  }

  private track = (p: Promise<void>): void => trackInflight(this.inflight, p, this.deps.onError);

  private writePeak(o: BookOrder): void {
    const now = Date.now();
    if (now - (this.peakWrites.get(o.id) ?? 0) < PEAK_WRITE_MS || o.peak === null) return;
    this.peakWrites.set(o.id, now);
    void this.deps.store.setOrderPeak(o.id, o.peak.toString()).catch(this.deps.onError);
  }

  /**
   * Fires a crossed order. Its claim is written in the commit that records its execution (fire.ts RecordClaim):
   * a claimed order always has its record, and nothing is sent before both are written. A fire that ends before
   * that commit (refused, failed before its record) fails the order from open, at the version it evaluated.
   */
  private async claimAndFire(o: BookOrder, trigger: string): Promise<void> {
    if (o.owner === undefined) return;
    let claimed: OrderRecord | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    const claim = recordClaim(o, trigger, this.deps, (r) => {
      claimed = r;
      this.firing.add(r.id);
      heartbeat = holdLease(this.deps, r.id);
    });
    try {
      // The attempt the claim makes: the claim is conditional on the version read with this attempt count.
      const attempt = { id: o.id, ...o.owner, attempt: o.attempt + 1 };
      const outcome = await this.deps
        .fire(attempt, o.spec, claim)
        .catch((e: unknown) => outcomeOfError(this.deps.store, e, claimed));
      // Another process fired it, or it changed (cancelled, retried): the poll brings the book up to date.
      if (outcome.kind === "lost") return;
      if (claimed !== undefined) await this.settle(claimed, o.spec, await this.verdictOf(claimed, outcome));
      else await this.failUnclaimed(o, trigger, outcome);
    } finally {
      clearInterval(heartbeat);
      if (claimed !== undefined) this.firing.delete(claimed.id);
    }
  }

  /** A fire refused or failed before its record (so before any claim): the order fails from open. */
  private async failUnclaimed(o: BookOrder, trigger: string, outcome: FireOutcome): Promise<void> {
    const failure = failureOf(outcome);
    if (failure === null) return;
    const after = await this.deps.store.transitionOrder({
      id: o.id,
      from: "open",
      version: o.version,
      to: "failed",
      triggeredBy: trigger,
      error: failure.error,
    });
    if (after === undefined) return;
    await this.activity(after, failure.status, failure.rule, null);
    this.deps.onSettled?.(after);
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
    if (outcome.kind === "lost") return;
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
    } else {
      const failure = failureOf(outcome);
      if (failure === null) return;
      const executionId = outcome.kind === "failed" ? outcome.executionId : null;
      // A sell that failed on chain (sent and refused by the program, or a blockhash that expired) is sent
      // again on fresh state, a bounded number of times; anything refused before sending fails the order.
      const sentAndFailed = executionId !== null && failure.status !== 403;
      const retry = spec.side === "sell" && sentAndFailed && order.attempt <= spec.maxRetries;
      after = await this.deps.store.transitionOrder({
        ...base,
        to: retry ? "open" : "failed",
        error: failure.error,
        ...(executionId !== null ? { executionId } : {}),
      });
      await this.activity(order, failure.status, failure.rule, executionId);
      if (retry && after !== undefined) this.add(after);
    }
    if (after !== undefined) this.deps.onSettled?.(after);
  }

  /** Records one firing of `order` in the account's activity log (with the policy rule that refused it). */
  readonly activity = (order: OrderRecord, status: number, rule: string | null, executionId: string | null) =>
    recordFire(this.deps, order, { status, rule, executionId });

  /** Brings the book in step with the store: other processes' orders, cancellations, retries; expiries. */
  async sync(): Promise<void> {
    const now = this.deps.clock();
    // Overlap the window (a row committed late with an earlier updated_at is still seen); every FULL_SYNC_MS read
    // every live order again: one committed later than the overlap (waiting on its key's lock) is otherwise missed.
    const full = now.getTime() - this.lastFullSync >= FULL_SYNC_MS;
    if (full) this.lastFullSync = now.getTime();
    const since = full ? undefined : this.lastSync;
    this.lastSync = isoNoZone(new Date(now.getTime() - 2 * this.deps.syncMs));
    for (const r of await this.deps.store.liveOrders(since)) {
      if (r.state === "open") this.add(r);
      else this.drop(r.id);
    }
    for (const p of [...this.pending.values()])
      await this.settleFromExecution(p.order, p.spec, p.executionId);
    const standing = [...(this.deps.snipes?.list() ?? []), ...(this.deps.copies?.list() ?? [])];
    const expiring = [
      ...standing.map((s) => ({ id: s.id, at: s.expiresAt === null ? null : Date.parse(s.expiresAt) })),
      ...[...this.book.orders()].map((o) => ({ id: o.id, at: o.expiresAtMs })),
    ].filter((o) => o.at !== null && o.at <= now.getTime());
    for (const { id } of expiring) {
      this.drop(id);
      const r = await this.deps.store.transitionOrder({ id, from: "open", to: "expired" });
      if (r !== undefined) this.deps.onSettled?.(r);
    }
  }

  /**
   * Settles triggered orders whose lease ended (their process died mid-fire): an attempt that recorded no
   * execution was never sent (the record is written before the send) and goes back to open; one that did is
   * settled from the execution's status once reconciliation has settled it, never sent again. Copy and snipe
   * claims left unsettled as long ago are settled the same way (CopyBook.reconcile, SnipeBook.reconcile).
   */
  async reclaim(): Promise<void> {
    const now = this.deps.clock().getTime();
    // Beside the orders' reclaim, never in its way (its errors are reported, not thrown here).
    void this.deps.copies?.reconcile(now - this.deps.leaseMs).catch(this.deps.onError);
    void this.deps.snipes?.reconcile(now - this.deps.leaseMs).catch(this.deps.onError);
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
