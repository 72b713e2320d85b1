/**
 * The orders resource with its engine: orders evaluated on every state change of their mints and fired through
 * the trade service, started with the app (only where warm venue state runs) and drained before the store closes.
 */
import type { FastifyInstance } from "fastify";
import type { Chain } from "../../chain/chain.js";
import type { FeeBounds } from "../../core/fee-fields.js";
import { startOrders, type OrdersSetup } from "../../domain/orders/setup.js";
import type { VenueState } from "../../domain/watch/venue-state.js";
import type { GivesWay } from "../../core/turn-yield.js";
import { orderFireRoutes } from "./order-fires.js";
import { orderRoutes } from "./orders.js";

/** What the orders need from the app. */
export interface OrdersInstall extends Omit<OrdersSetup, "chain" | "venues" | "onError"> {
  chain: Chain | undefined;
  venues: VenueState | undefined;
  clock: () => Date;
  fees: FeeBounds;
  maxOpenPerKey: number;
  /** What gives way while the engine has a changed mint to evaluate: the market feed's fan-out, the event refresh. */
  givesWay?: readonly GivesWay[];
}

/** Starts the order engine (when the warm state runs) and registers the orders routes. */
export async function installOrders(app: FastifyInstance, d: OrdersInstall): Promise<void> {
  const onError = (e: unknown): void =>
    app.log.error({ err: { message: (e as Error).message } }, "order engine");
  const engine =
    d.venues === undefined || d.chain === undefined || !d.venues.enabled()
      ? undefined
      : await startOrders({ ...d, chain: d.chain, venues: d.venues, onError });
  if (engine !== undefined) {
    for (const w of d.givesWay ?? []) engine.onClose(w.yieldTo(() => engine.evaluating()));
    app.addHook("onClose", async () => {
      engine.close();
      // Fires under way finish (and write their outcome) before the store closes.
      await Promise.allSettled(engine.pendingFires());
    });
  }
  orderRoutes(app, {
    ...(d.chain !== undefined ? { chain: d.chain } : {}),
    ...(d.venues !== undefined ? { venues: d.venues } : {}),
    ...(engine !== undefined ? { engine } : {}),
    clock: d.clock,
    fees: d.fees,
    relayTipLamports: d.relayTipLamports,
    maxOpenPerKey: d.maxOpenPerKey,
  });
  orderFireRoutes(app);
}
