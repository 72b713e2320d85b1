/**
 * The id of a new order and the rerun of an idempotent create: under an Idempotency-Key the id follows from the
 * key's claim, so a request rerun after its process died between the insert and the stored answer finds the
 * order it placed instead of placing a second one.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Store } from "../../store/index.js";
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
