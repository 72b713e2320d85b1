/**
 * POST/GET/DELETE /v1/orders: create (the body's rules, the mint's state read once — or taken warm — for
 * decimals, the wallet's balance and the price now, the key's policy on the trade the order would send, then
 * the insert under MAX_OPEN_ORDERS_PER_KEY and the engine's book), a dry run (what the order would do now,
 * nothing stored), list, get and cancel.
 */
import type { Chain } from "../../chain/chain.js";
import { ApiError, badRequest, TRADE_RULES } from "../../core/errors.js";
import type { FeeBounds } from "../../core/fee-fields.js";
import { parseAddress } from "../../core/addresses.js";
import { parseQueryInt } from "../../core/request-fields.js";
import type { KeyRecord, OrderStateName, Store } from "../../store/index.js";
import { planRefusal, policyView } from "../keys/fire-custody.js";
import { refusal } from "../keys/scopes.js";
import { cachedTradeConfigs } from "../trade/configs.js";
import { parseTradeRequest } from "../trade/request.js";
import { tradeState } from "../trade/warm-read.js";
import type { VenueState } from "../watch/venue-state.js";
import { selectWallet } from "../wallets/wallets.js";
import type { OrderEngine } from "./engine.js";
import { orderTrade } from "./fire.js";
import { ORDER_STATES, type OrderSpec } from "./model.js";
import { observe, sizeOf } from "./observe.js";
import { parseOrderRequest } from "./request.js";
import { decide } from "./rules.js";
import { createSnipe } from "./snipe-service.js";
import { createCopy } from "./copy-service.js";
import { fireRecords } from "./fires.js";
import { placeOrder } from "./placement.js";
import type { RequestBody } from "../../core/request-fields.js";
import { entryOf, resolveSpec, sizeUnitsOf } from "./spec.js";
import { ORDER_RULES as R } from "./texts.js";
import { orderView, priceText, specView } from "./view.js";
import { LAUNCHSWAP } from "../../core/venues.js";

/** Collaborators of the order routes. */
export interface OrderServiceDeps {
  /** The request's own store (wallet binding applies). */
  store: Store;
  chain: Pick<Chain, "rpc" | "caches">;
  venues: VenueState;
  engine: OrderEngine;
  clock: () => Date;
  fees: FeeBounds;
  relayTipLamports: bigint;
  maxOpenPerKey: number;
}

/** The key creating or reading orders, and its account. */
export interface OrderCaller {
  accountId: number;
  key: KeyRecord;
}

/** Creates an order (or answers a dry run); `claimId`: the Idempotency-Key's claim, when the request has one. */
export async function createOrder(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  body: unknown,
  claimId?: number,
): Promise<unknown> {
  const kind = typeof body === "object" && body !== null ? (body as { kind?: unknown }).kind : undefined;
  if (kind === "snipe") return createSnipe(deps, caller, body as RequestBody, claimId);
  if (kind === "copy") return createCopy(deps, caller, body as RequestBody, claimId);
  const req = parseOrderRequest(body, deps.fees, deps.clock());
  const wallet = await selectWallet(deps.store, caller.accountId, req.wallet ?? undefined);
  // The mint's state (warm or one read), which also watches the mint and this wallet's accounts for the fire.
  const shape = parseTradeRequest({ action: "sell", mint: req.mint, amount: "1" });
  const state = await tradeState(deps.chain.rpc, deps.venues, shape, wallet.publicKey, caller.accountId);
  // And the stand-in user's accounts the evaluation quotes with (the same plan GET /v1/quote uses).
  await tradeState(deps.chain.rpc, deps.venues, shape, req.mint, caller.accountId);
  const read = state.read;
  if (req.kind === "on_migration" && read.venue === LAUNCHSWAP) throw badRequest(R.alreadyMigrated);
  const sizeUnits = req.side === "sell" ? sizeUnitsOf(req.amount, read.userTokenBalance) : null;
  if (req.side === "sell" && (sizeUnits === null || sizeUnits <= 0n))
    throw badRequest(TRADE_RULES.noTokenBalance);
  if (req.amount.kind === "tokens" && req.amount.units > read.userTokenBalance)
    throw badRequest(TRADE_RULES.tokenBalanceTooLow);
  const size = sizeOf(req.side, req.amount, sizeUnits)!;
  const configs = cachedTradeConfigs(deps.chain.caches);
  const now = observe(size, read, configs);
  // Percent levels are from the wallet's own entry (the positions ledger), not from the price now.
  const needsPosition = req.entryPrice === null && req.legs.some((l) => l.form.kind === "percent");
  const position = needsPosition
    ? await deps.store.findPosition(caller.accountId, wallet.publicKey, req.mint)
    : undefined;
  const spec = resolveSpec(req, sizeUnits, entryOf(req, position?.figures, read.decimals));
  checkBracket(spec);

  const { plan } = orderTrade(spec, wallet.publicKey, deps.relayTipLamports);
  const verdict = await planRefusal(deps, caller.key, plan, wallet.publicKey);
  if (req.dryRun) {
    const d = now === null ? null : decide(spec, now, spec.kind === "trailing_stop" ? now.price : null);
    return {
      dry_run: true,
      policy: policyView(verdict),
      order: { wallet: wallet.publicKey, ...specView(spec), expires_at: req.expiresAt },
      price_now: now === null ? null : priceText(now.price),
      sol_out_now_lamports: now?.solOut?.toString() ?? null,
      venue: read.venue,
      would_fire_now: d?.fire === true,
      trigger_now: d?.fire === true ? d.trigger : null,
    };
  }
  if (verdict !== null) throw refusal(verdict.detail, verdict.rule);
  const placement = {
    kind: spec.kind,
    side: spec.side,
    mint: spec.mint,
    wallet: wallet.publicKey,
    spec,
    expiresAt: req.expiresAt,
    // A trailing stop's peak starts at the price now.
    peak: spec.kind === "trailing_stop" && now !== null ? now.price.toString() : null,
  };
  return placeOrder(deps, caller, placement, claimId, (r) => ({
    ...orderView(r),
    price_now: now === null ? null : priceText(now.price),
  }));
}

/** A bracket's take-profit must sit above its stop-loss when both are prices (else both would fire at once). */
function checkBracket(spec: OrderSpec): void {
  if (spec.kind !== "bracket") return;
  const [tp, sl] = spec.triggers;
  if (tp?.level.kind === "price" && sl?.level.kind === "price" && tp.level.price <= sl.level.price)
    throw badRequest(R.bracketOrder);
  if (tp?.level.kind === "sol_out" && sl?.level.kind === "sol_out" && tp.level.lamports <= sl.level.lamports)
    throw badRequest(R.bracketOrder);
}

/** GET /v1/orders: newest first, filtered by state and mint; a wallet-bound key sees its wallets' orders. */
export async function listOrders(
  deps: Pick<OrderServiceDeps, "store">,
  caller: OrderCaller,
  query: Record<string, unknown>,
): Promise<unknown> {
  const state = query.state;
  if (state !== undefined && !(ORDER_STATES as readonly unknown[]).includes(state))
    throw badRequest(R.stateInvalid);
  // A filter is validated where it is read: a mint that is no address is a 400, not an empty list.
  const mint =
    query.mint === undefined || query.mint === "" ? undefined : parseAddress(query.mint, R.mintInvalid);
  const limit =
    parseQueryInt(query.limit, "limit must be an integer from 1 to 500", { min: 1, max: 500 }) ?? 100;
  const rows = await deps.store.listOrders({
    accountId: caller.accountId,
    ...(state !== undefined ? { state: state as OrderStateName } : {}),
    ...(mint !== undefined ? { mint } : {}),
    ...(caller.key.wallets !== null ? { onlyWallets: caller.key.wallets } : {}),
    limit,
  });
  return { orders: rows.map(orderView) };
}

/** What an order id looks like (`ord_` and a UUID): anything else names no order, and never reaches the store. */
const ORDER_ID = /^ord_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function findOwn(store: Pick<Store, "findOrder">, caller: OrderCaller, id: string) {
  // A NUL or other byte PostgreSQL refuses in text would otherwise be a 500.
  if (!ORDER_ID.test(id)) throw new ApiError(404, R.notFound);
  const r = await store.findOrder(caller.accountId, id);
  if (r === undefined || (caller.key.wallets !== null && !caller.key.wallets.includes(r.wallet)))
    throw new ApiError(404, R.notFound);
  return r;
}

/** GET /v1/orders/{id}. */
export async function getOrder(
  deps: Pick<OrderServiceDeps, "store">,
  caller: OrderCaller,
  id: string,
): Promise<unknown> {
  return orderView(await findOwn(deps.store, caller, id));
}

/** GET /v1/orders/{id}/fires: the order's records per trigger (snipe and copy orders), newest first. */
export async function getOrderFires(
  deps: Pick<OrderServiceDeps, "store">,
  caller: OrderCaller,
  id: string,
  query: Record<string, unknown>,
): Promise<unknown> {
  return fireRecords(deps.store, await findOwn(deps.store, caller, id), query);
}

/** DELETE /v1/orders/{id}: an open order is cancelled (409 naming its state otherwise). */
export async function cancelOrder(
  deps: Pick<OrderServiceDeps, "store" | "engine">,
  caller: OrderCaller,
  id: string,
): Promise<unknown> {
  const r = await findOwn(deps.store, caller, id);
  const done = await deps.store.transitionOrder({ id, from: "open", to: "cancelled", error: null });
  if (done === undefined) {
    const now = await deps.store.findOrder(caller.accountId, id);
    throw new ApiError(409, R.notOpen(now?.state ?? r.state), { state: now?.state ?? r.state });
  }
  deps.engine.drop(id);
  return orderView(done);
}
