/**
 * Placing an order, for every kind: the id of a new order and the rerun of an idempotent create (under an
 * Idempotency-Key the id follows from the key's claim, so a request rerun after its process died between the
 * insert and the stored answer finds the order it placed instead of placing a second one), the open-order cap,
 * the engine's book; and what standing orders (snipe, copy) share at creation: the policy verdict on the buy they
 * would send (mint rules wait for each fire) and the dry run's answer.
 */
import { createHash, randomUUID } from "node:crypto";
import { ApiError } from "../../core/errors.js";
import { planRefusal, policyView, type FireRefusal } from "../keys/fire-custody.js";
import { refusal } from "../keys/scopes.js";
import { OpenOrderLimitError, type OrderRecord, type Store } from "../../store/index.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
import { orderTrade } from "./fire.js";
import type { OrderSpec } from "./model.js";
import { specToJson } from "./spec.js";
import { ORDER_RULES as R } from "./texts.js";
import { orderView } from "./view.js";

/** The id of a new order: random, or derived from the Idempotency-Key's claim (`claimId`, the stored claim's id). */
export function newOrderId(accountId: number, claimId?: number): string {
  if (claimId === undefined) return `ord_${randomUUID()}`;
  const h = createHash("sha256").update(`order:${accountId}:${claimId}`).digest("hex");
  return `ord_${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The order `id` already placed by an earlier run of the same idempotent request, as answered then. */
export async function placedBefore(
  store: Pick<Store, "findOrder">,
  accountId: number,
  id: string,
  claimId: number | undefined,
): Promise<unknown> {
  if (claimId === undefined) return undefined;
  const r = await store.findOrder(accountId, id);
  return r === undefined ? undefined : orderView(r);
}

/** An order to place: what its row holds beside the id and the caller (the spec in its domain form). */
export interface OrderPlacement {
  readonly kind: string;
  readonly side: "buy" | "sell";
  readonly mint: string;
  readonly wallet: string;
  readonly spec: unknown;
  readonly expiresAt: string | null;
  /** A trailing stop's starting peak (the price now); null otherwise. */
  readonly peak: string | null;
}

/**
 * Places an order once (an idempotent rerun answers the order it placed), within the key's open-order cap (409
 * past it), and puts it in the engine; a new order is answered as `answer` makes it.
 */
export async function placeOrder(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  order: OrderPlacement,
  claimId?: number,
  answer: (r: OrderRecord) => unknown = orderView,
): Promise<unknown> {
  const id = newOrderId(caller.accountId, claimId);
  const before = await placedBefore(deps.store, caller.accountId, id, claimId);
  if (before !== undefined) return before;
  let record;
  try {
    record = await deps.store.insertOrder(
      {
        id,
        accountId: caller.accountId,
        keyId: caller.key.id,
        kind: order.kind,
        side: order.side,
        mint: order.mint,
        wallet: order.wallet,
        // The spec's JSON form (bigints as { $n }), read back by the engine and the view.
        spec: specToJson(order.spec as Parameters<typeof specToJson>[0]),
        expiresAt: order.expiresAt,
        peak: order.peak,
      },
      deps.maxOpenPerKey,
    );
  } catch (e) {
    if (e instanceof OpenOrderLimitError)
      throw new ApiError(409, R.tooMany(e.max), { max_open_orders: e.max });
    throw e;
  }
  deps.engine.add(record);
  return answer(record);
}

/** A stand-in mint for a standing order's creation-time plan (the system program's address: never a launch token). */
export const ANY_MINT = "11111111111111111111111111111111";
/** Mint rules cannot be judged before the mint is known: a standing order meets them at each fire. */
const MINT_RULES = new Set(["mints_allow", "mints_deny"]);

/** The key's policy verdict at creation on the buy `buy` (on ANY_MINT) a standing order would send from `wallet`. */
export async function standingVerdict(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  buy: OrderSpec,
  wallet: string,
): Promise<FireRefusal | null> {
  const { plan } = orderTrade(buy, wallet, deps.relayTipLamports);
  const found = await planRefusal(deps, caller.key, plan, wallet);
  return found !== null && MINT_RULES.has(found.rule) ? null : found;
}

/** A standing order (snipe, copy) as created: it has no mint of its own and always buys first. */
export interface StandingOrder {
  readonly kind: "snipe" | "copy";
  readonly mint: string;
  readonly wallet: string;
  readonly spec: unknown;
  /** The spec as the answer shows it. */
  readonly view: object;
}

/**
 * A standing order's creation once the key's policy judged it: a dry run answers the verdict and the order, a
 * refusal is a 403, else the order is placed.
 */
export async function createStanding(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  order: StandingOrder,
  req: { readonly dryRun: boolean; readonly expiresAt: string | null },
  verdict: FireRefusal | null,
  claimId?: number,
): Promise<unknown> {
  const { expiresAt } = req;
  if (req.dryRun)
    return {
      dry_run: true,
      policy: policyView(verdict),
      order: { wallet: order.wallet, ...order.view, expires_at: expiresAt },
    };
  if (verdict !== null) throw refusal(verdict.detail, verdict.rule);
  const { kind, mint, wallet, spec } = order;
  return placeOrder(deps, caller, { kind, side: "buy", mint, wallet, spec, expiresAt, peak: null }, claimId);
}
