/** Builds and starts the order engine of a process from its store, chain and warm venue state. */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Chain } from "../../chain/chain.js";
import type { FeeBounds } from "../../core/fee-fields.js";
import type { OrderRecord, Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import type { FireCustodyDeps } from "../keys/fire-custody.js";
import { readAccountsAt } from "../../chain/read-accounts.js";
import { tradeReadPlanOf } from "../../launch/trade-plan-memo.js";
import { cachedTradeConfigs } from "../trade/configs.js";
import type { VenueState } from "../watch/venue-state.js";
import { OrderEngine } from "./engine.js";
import { PreparedTrades } from "./prepared-trades.js";
import { fireOrder, orderCustody, type FireDeps, type FireOutcome, type RecordClaim } from "./fire.js";
import { CustodySnapshots, type SnapshotView } from "./custody-snapshots.js";
import type { OrderSpec } from "./model.js";
import { SnipeBook } from "./snipe-engine.js";
import { CopyBook, type CopyDecision } from "./copy-engine.js";
import { interpretTradeRead } from "../../launch/trade-accounts.js";
import type { MarketHub } from "../market/market-hub.js";
import type { TradeMessage } from "../market/messages.js";
import { parseTradeRequest } from "../trade/request.js";
import { tradeState } from "../trade/warm-read.js";

/** What the engine of a process is built from. */
export interface OrdersSetup {
  /** The store as outside any request (the key's custody is bound per fire). */
  store: Store;
  chain: Chain;
  vault: Pick<Vault, "withKeypair">;
  venues: VenueState;
  custody: Omit<FireCustodyDeps, "store">;
  fees: FeeBounds;
  relayTipLamports: bigint;
  settings: { leaseMs: number; syncMs: number };
  onError: (e: unknown) => void;
  onSettled?: (order: OrderRecord) => void;
  /** Told of each snipe buy's end (tests wait on it). */
  onSniped?: (order: OrderRecord, mint: string, outcome: FireOutcome) => void;
  /** The market stream's decoded trades (copy orders follow wallets there); absent: copy orders copy nothing. */
  trades?: Pick<MarketHub, "followTrader">;
  /** Told of each followed trade a copy order decided (fired or skipped; tests wait on it). */
  onCopied?: (order: OrderRecord, trade: TradeMessage, decision: CopyDecision) => void;
}

/** The activity-log status, rule and execution of a fire's outcome. */
function logged(outcome: FireOutcome): { status: number; rule: string | null; executionId: string | null } {
  const status = outcome.kind === "refused" ? 403 : outcome.kind === "failed" ? outcome.status : 200;
  const rule =
    outcome.kind === "refused"
      ? outcome.refusal.rule
      : outcome.kind === "failed" && typeof outcome.extra.rule === "string"
        ? outcome.extra.rule
        : null;
  const executionId = outcome.kind === "refused" || outcome.kind === "lost" ? null : outcome.executionId;
  return { status, rule, executionId };
}

/** Starts the engine: live orders loaded, their mints re-watched, the loops running. */
export async function startOrders(s: OrdersSetup): Promise<OrderEngine> {
  const fireDeps: FireDeps = {
    store: s.store,
    chain: s.chain,
    vault: s.vault,
    venues: s.venues,
    custody: s.custody,
    relayTipLamports: s.relayTipLamports,
    fees: s.fees,
    onRecordError: s.onError,
  };
  const snipes = new SnipeBook({
    store: s.store,
    fire: (order, spec, key) => fireOrder(fireDeps, order, spec, key),
    warmWallet: (wallet) => s.venues.warmWallets([wallet]),
    clock: s.custody.clock,
    onError: s.onError,
    onFired: (order, mint, outcome) => {
      const { status, rule, executionId } = logged(outcome);
      void engine
        .activity(order, status, rule, executionId)
        .finally(() => s.onSniped?.(order, mint, outcome));
    },
  });
  const offCreate = s.venues.created?.onCreate((n) => snipes.onCreate(n));
  const trades = s.trades;
  const copies = new CopyBook({
    store: s.store,
    fire: (order, spec, key) => fireOrder(fireDeps, order, spec, key),
    follow: (wallet, listener) => trades?.followTrader(wallet, listener) ?? (() => undefined),
    warmWallet: (wallet) => s.venues.warmWallets([wallet]),
    state: async (mint, wallet, side, accountId) => {
      const intent = parseTradeRequest({ action: side, mint, amount: "1" });
      return (await tradeState(s.chain.rpc, s.venues, intent, wallet, accountId)).read;
    },
    // Read, not watched: a followed wallet is not ours, its accounts are not subscribed.
    balanceOf: async (mint, wallet) => {
      const plan = tradeReadPlanOf(mint, wallet, null);
      const { accounts } = await readAccountsAt(
        { rpc: s.chain.backgroundRpc ?? s.chain.rpc },
        plan.addresses,
      );
      return interpretTradeRead(plan, accounts).userTokenBalance;
    },
    clock: s.custody.clock,
    onError: s.onError,
    onDecided: (order, trade, decision) => {
      // A skip is logged as a 409 naming the reason (the caps' and the price bound's own rule names).
      const row =
        decision.kind === "fired"
          ? logged(decision.outcome)
          : { status: 409, rule: decision.reason, executionId: null };
      void engine
        .activity(order, row.status, row.rule, row.executionId)
        .finally(() => s.onCopied?.(order, trade, decision));
    },
  });
  // The book's orders have their trade parsed, and their key and wallet read, when they enter it, not on the
  // trigger's path.
  const prepared = new PreparedTrades(s.relayTipLamports);
  const snapshots = new CustodySnapshots(s.store);
  const fireOnce = (
    order: Parameters<typeof fireOrder>[1],
    spec: OrderSpec,
    claim: RecordClaim,
    rows: SnapshotView,
  ): Promise<FireOutcome> =>
    fireOrder(
      fireDeps,
      order,
      spec,
      undefined,
      orderCustody(fireDeps, order, spec, claim, prepared.take(order.id, spec, order.wallet), rows),
    );
  const engine = new OrderEngine({
    store: s.store,
    venues: s.venues,
    configs: cachedTradeConfigs(s.chain.caches),
    snipes,
    copies,
    prepare: (id, spec, owner) => {
      prepared.prepare(id, spec, owner.wallet);
      snapshots.prefetch(owner, s.onError);
    },
    fire: async (order, spec, claim) => {
      const kept = snapshots.view();
      const outcome = await fireOnce(order, spec, claim, kept);
      // Decided on kept rows and not sent: refused, or lost at the claim's check because a kept row had changed
      // (a claim lost to another process's fire is lost either way): decided again on fresh rows.
      if (!kept.served) return outcome;
      if (outcome.kind === "refused" || (outcome.kind === "lost" && (await kept.stale())))
        return fireOnce(order, spec, claim, snapshots.view(true));
      return outcome;
    },
    refresh: async (mint) => {
      const plan = tradeReadPlanOf(mint, mint, null);
      const { accounts, slot } = await readAccountsAt(
        { rpc: s.chain.backgroundRpc ?? s.chain.rpc },
        plan.addresses,
      );
      s.venues.afterRead(plan, accounts, slot);
    },
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    clock: s.custody.clock,
    leaseMs: s.settings.leaseMs,
    syncMs: s.settings.syncMs,
    onError: s.onError,
    ...(s.onSettled !== undefined ? { onSettled: s.onSettled } : {}),
  });
  await engine.start();
  if (offCreate !== undefined) engine.onClose(offCreate);
  engine.onClose(() => copies.close());
  return engine;
}
