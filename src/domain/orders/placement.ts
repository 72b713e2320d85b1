/**
 * The id of a new order and the rerun of an idempotent create: under an Idempotency-Key the id follows from the
 * key's claim, so a request rerun after its process died between the insert and the stored answer finds the
 * order it placed instead of placing a second one.
 */
import { createHash, randomUUID } from "node:crypto";
import { ApiError } from "../../core/errors.js";
import { OpenOrderLimitError, type Store } from "../../store/index.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
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

/** A standing order (snipe, copy) to place: it has no mint of its own and always buys first. */
export interface StandingOrder {
  readonly kind: "snipe" | "copy";
  readonly mint: string;
  readonly wallet: string;
  readonly spec: unknown;
  readonly expiresAt: string | null;
}

/**
 * Places a standing order once (an idempotent rerun answers the order it placed), within the key's open-order
 * cap (409 past it), and puts it in the engine.
 */
export async function placeStandingOrder(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  order: StandingOrder,
  claimId?: number,
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
        side: "buy",
        mint: order.mint,
        wallet: order.wallet,
        // The spec's JSON form (bigints as { $n }), read back by the engine and the view.
        spec: specToJson(order.spec as Parameters<typeof specToJson>[0]),
        expiresAt: order.expiresAt,
        peak: null,
      },
      deps.maxOpenPerKey,
    );
  } catch (e) {
    if (e instanceof OpenOrderLimitError)
      throw new ApiError(409, R.tooMany(e.max), { max_open_orders: e.max });
    throw e;
  }
  deps.engine.add(record);
  return orderView(record);
}
