/**
 * The copy orders of one process: each followed wallet's trades reach the book from the market feed's decoded
 * trade messages (both venues); after the order's delay each is sized (a buy's SOL, a sell's share of our
 * position), checked against the price move since their trade, claimed by a row per (order, trade signature)
 * (exactly once across processes; caps counted under the order's lock) and sent through the same fire as the
 * other orders (custody and policy checked at fire). The execution's Idempotency-Key is
 * `order:<id>:<signature>`. A buy takes its state warm (the mint's subscription, or a token created lately from
 * its events) when it can; the mint and the wallet's accounts of it stay watched after it, so the copied sell
 * finds them warm.
 */
import { solText } from "../../core/amounts.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import type { CopyClaimResult, OrderRecord, Store } from "../../store/index.js";
import type { TradeMessage } from "../market/messages.js";
import type { FireOutcome } from "./fire.js";
import { fireRecordOf, outcomeOfKeyedError, reconciledFire } from "./fire-claim.js";
import { standingTradeSpec, type OrderSpec } from "./model.js";
import { holdNewest, trackInflight, type HeldOrder } from "./held-orders.js";
import {
  copiesSide,
  copyBuyLamports,
  copySellAmount,
  priceMoveHundredths,
  reservesOf,
  type CopySpec,
} from "./copy.js";

/** The mint column of a copy order (it follows wallets, no mint in particular). */
export const COPY_MINT = "*";
const DAY_MS = 86_400_000;

/** The Idempotency-Key of a copy order's copy of one followed trade. */
export const copyFireKey = (orderId: string, signature: string): string => `order:${orderId}:${signature}`;

/** The trade a copy order sends, as the other orders' fire takes it. */
export function copyTradeSpec(
  spec: CopySpec,
  side: "buy" | "sell",
  mint: string,
  amountText: string,
): OrderSpec {
  return standingTradeSpec(spec, side, mint, 0n, amountText);
}

/** What one followed trade came to: a fire's outcome, or a skip with its reason. */
export type CopyDecision =
  | { kind: "fired"; outcome: FireOutcome }
  | { kind: "skipped"; reason: string; detail: Record<string, string> };

/** Collaborators of the copy book. */
export interface CopyDeps {
  store: Pick<
    Store,
    | "claimCopyFire"
    | "settleCopyFire"
    | "unsettledCopyFires"
    | "reconcileCopyFire"
    | "findExecutionIdByKey"
    | "findExecution"
  >;
  fire: (order: OrderRecord, spec: OrderSpec, key: string) => Promise<FireOutcome>;
  /** Tells `listener` of each trade by `wallet` (the market hub); returns the removal. */
  follow: (wallet: string, listener: (m: TradeMessage) => void) => () => void;
  /** Keeps the wallet's own account warm (a buy from the warm state needs its lamports). */
  warmWallet: (wallet: string) => Promise<void>;
  /** The state of `wallet`'s trade of `mint` now: warm when it can be, else one read (which then watches it). */
  state: (mint: string, wallet: string, side: "buy" | "sell", accountId: number) => Promise<TradeRead>;
  /** A followed wallet's token balance of `mint` now (one read: the event does not carry it). */
  balanceOf: (mint: string, wallet: string) => Promise<bigint>;
  clock: () => Date;
  onError: (e: unknown) => void;
  /** Told of each followed trade's end (logged in the activity log; tests wait on it). */
  onDecided?: (order: OrderRecord, m: TradeMessage, decision: CopyDecision) => void;
}

/** The open copy orders of this process (see the file comment). */
export class CopyBook {
  private readonly orders = new Map<string, HeldOrder<CopySpec>>();
  private readonly followed = new Map<string, { off: () => void; orders: Set<string> }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly inflight = new Set<Promise<void>>();
  /** Claims of this process whose send is under way (`order:<id>:<signature>`): never reconciled from here. */
  private readonly firing = new Set<string>();
  private reconciling = false;

  constructor(private readonly deps: CopyDeps) {}

  /** Adds (or replaces) an open copy order; its followed wallets are subscribed. */
  add(record: OrderRecord, spec: CopySpec): void {
    if (!holdNewest(this.orders, record, spec)) return;
    for (const w of spec.follow) {
      let f = this.followed.get(w);
      if (f === undefined) {
        f = { off: this.deps.follow(w, (m) => this.onTrade(m)), orders: new Set() };
        this.followed.set(w, f);
      }
      f.orders.add(record.id);
    }
    void this.deps.warmWallet(record.wallet).catch(this.deps.onError);
  }

  /** Takes an order out (cancelled, expired); a wallet no order follows any more is unsubscribed. */
  drop(id: string): boolean {
    const o = this.orders.get(id);
    if (o === undefined) return false;
    this.orders.delete(id);
    for (const w of o.spec.follow) {
      const f = this.followed.get(w);
      if (f === undefined) continue;
      f.orders.delete(id);
      if (f.orders.size === 0) {
        f.off();
        this.followed.delete(w);
      }
    }
    return true;
  }

  /** The open copy orders held. */
  list(): OrderRecord[] {
    return [...this.orders.values()].map((o) => o.record);
  }

  /** Stops the delayed copies not started yet (another process may still take them) and every subscription. */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const f of this.followed.values()) f.off();
    this.followed.clear();
  }

  /** A followed wallet's trade: each order that follows it copies it (after its delay). */
  onTrade(m: TradeMessage): void {
    const now = this.deps.clock().getTime();
    for (const id of this.followed.get(m.trader)?.orders ?? []) {
      const o = this.orders.get(id);
      if (o === undefined || !copiesSide(o.spec, m.side)) continue;
      if (o.record.expiresAt !== null && Date.parse(o.record.expiresAt) <= now) continue;
      if (o.spec.delayMs === 0) this.track(o.record.id, m);
      else {
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.track(o.record.id, m);
        }, o.spec.delayMs);
        this.timers.add(t);
      }
    }
  }

  private track(id: string, m: TradeMessage): void {
    // Taken at fire time: an order cancelled during the delay copies nothing.
    const o = this.orders.get(id);
    if (o === undefined) return;
    trackInflight(this.inflight, this.copy(o.record, o.spec, m), this.deps.onError);
  }

  private async copy(record: OrderRecord, spec: CopySpec, m: TradeMessage): Promise<void> {
    const side = m.side;
    const needsState = side === "sell" || spec.maxMoveHundredths !== null;
    const read = needsState ? await this.deps.state(m.mint, record.wallet, side, record.accountId) : null;
    let skip: { reason: string; detail: Record<string, string> } | null = null;
    if (read !== null && spec.maxMoveHundredths !== null) {
      const then = { quote: BigInt(m.virtual_sol_reserves), base: BigInt(m.virtual_token_reserves) };
      const moved = priceMoveHundredths(then, reservesOf(read));
      if (moved > spec.maxMoveHundredths)
        skip = { reason: "max_price_move", detail: { moved_bps: moved.toString() } };
    }
    let amountText = "";
    let lamports = 0n;
    if (skip === null && side === "buy") {
      lamports = copyBuyLamports(spec, BigInt(m.sol_amount));
      if (lamports <= 0n) skip = { reason: "too_small", detail: {} };
    } else if (skip === null && read !== null) {
      const sold = BigInt(m.token_amount);
      // Their balance is read only when we hold some of the mint (most followed sells are of tokens we lack).
      const percent = spec.sellSizing === "percent" && read.userTokenBalance > 0n;
      const theirs = percent ? await this.deps.balanceOf(m.mint, m.trader) : null;
      const amount = copySellAmount(spec, read.userTokenBalance, sold, theirs);
      if (amount === null) skip = { reason: "no_position", detail: {} };
      else amountText = amount;
    }
    const now = this.deps.clock().getTime();
    const claim: CopyClaimResult = await this.deps.store.claimCopyFire({
      orderId: record.id,
      accountId: record.accountId,
      signature: m.signature,
      mint: m.mint,
      side,
      lamports,
      atMs: now,
      perTokenLamports: spec.maxPerTokenLamports,
      perDay:
        spec.maxPerDayLamports === null ? null : { sinceMs: now - DAY_MS, lamports: spec.maxPerDayLamports },
      skip: skip?.reason ?? null,
      trader: m.trader,
      theirLamports: BigInt(m.sol_amount),
      theirUnits: BigInt(m.token_amount),
      sellAmount: side === "sell" && amountText !== "" ? amountText : null,
    });
    if (claim.result === "closed") this.drop(record.id);
    if (claim.result === "skipped") {
      this.deps.onDecided?.(record, m, { kind: "skipped", reason: claim.reason, detail: skip?.detail ?? {} });
      return;
    }
    if (claim.result !== "claimed") return;
    if (side === "buy") amountText = solText(claim.lamports);
    const key = copyFireKey(record.id, m.signature);
    this.firing.add(key);
    try {
      // A fire that threw is settled here too (from its record, if any), not left claimed until reconciliation.
      const outcome = await this.deps
        .fire(record, copyTradeSpec(spec, side, m.mint, amountText), key)
        .catch((e: unknown) => {
          this.deps.onError(e);
          return outcomeOfKeyedError(this.deps.store, e, record.accountId, key);
        });
      const settled = fireRecordOf(outcome);
      await this.deps.store.settleCopyFire(record.id, m.signature, settled.executionId, settled.outcome);
      this.deps.onDecided?.(record, m, { kind: "fired", outcome });
    } finally {
      this.firing.delete(key);
    }
  }

  /**
   * Settles the claims a process left unsettled when it ended between claim and settlement (kill -9), once
   * older than `beforeMs`: one that recorded its execution (written before the send) is settled from it, never
   * sent again; one without a record sent nothing and is settled `dropped:process_ended` (not sent late: the
   * followed trade's moment has passed, and only the claim row, not the send, is exactly-once across processes).
   * Returns how many this call settled.
   */
  async reconcile(beforeMs: number): Promise<number> {
    // One pass at a time in a process (the loop that calls it does not wait for it).
    if (this.reconciling) return 0;
    this.reconciling = true;
    try {
      return await this.reconcilePass(beforeMs);
    } finally {
      this.reconciling = false;
    }
  }

  private async reconcilePass(beforeMs: number): Promise<number> {
    let n = 0;
    for (const f of await this.deps.store.unsettledCopyFires(beforeMs, 50)) {
      const key = copyFireKey(f.orderId, f.signature);
      if (this.firing.has(key)) continue;
      const { executionId, outcome } = await reconciledFire(this.deps.store, f.accountId, key);
      if (await this.deps.store.reconcileCopyFire(f.orderId, f.signature, executionId, outcome)) n++;
    }
    return n;
  }
}
