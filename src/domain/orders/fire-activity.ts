/** The activity-log row of one order firing (method FIRE), written by the engine and the standing orders. */
import type { OrderRecord, Store } from "../../store/index.js";

/** What writing a firing's row needs. */
export interface FireActivityDeps {
  readonly store: Pick<Store, "findKey" | "insertActivity">;
  readonly clock: () => Date;
  readonly onError: (e: unknown) => void;
}

/** Records one firing of `order` (with the policy rule that refused it); a failed write is reported, never thrown. */
export async function recordFire(
  deps: FireActivityDeps,
  order: OrderRecord,
  fire: { status: number; rule: string | null; executionId: string | null },
): Promise<void> {
  try {
    const key = await deps.store.findKey(order.accountId, order.keyId);
    await deps.store.insertActivity({
      accountId: order.accountId,
      at: deps.clock().toISOString(),
      keyId: order.keyId,
      keyName: key?.name ?? `key-${order.keyId}`,
      method: "FIRE",
      route: `/v1/orders/${order.id}`,
      wallets: [order.wallet],
      executionId: fire.executionId,
      status: fire.status,
      rule: fire.rule,
      ip: null,
    });
  } catch (e) {
    deps.onError(e);
  }
}
