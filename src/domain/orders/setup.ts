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
import { fireOrder } from "./fire.js";

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
}

/** Starts the engine: live orders loaded, their mints re-watched, the loops running. */
export async function startOrders(s: OrdersSetup): Promise<OrderEngine> {
  const engine = new OrderEngine({
    store: s.store,
    venues: s.venues,
    configs: cachedTradeConfigs(s.chain.caches),
    fire: (order, spec) =>
      fireOrder(
        {
          store: s.store,
          chain: s.chain,
          vault: s.vault,
          venues: s.venues,
          custody: s.custody,
          relayTipLamports: s.relayTipLamports,
          fees: s.fees,
          onRecordError: s.onError,
        },
        order,
        spec,
      ),
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
  return engine;
}
