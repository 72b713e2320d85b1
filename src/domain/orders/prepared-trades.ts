/**
 * The trades of open orders parsed ahead of their fire: orderTrade (the order's trade body through the request
 * parser, its fees and the spend plan the key's policy judges) costs a few tens of microseconds of cold code on
 * the trigger's path, and depends only on the order's spec, its wallet and the relay tip. The engine prepares an
 * order's trade when the order enters its book; the fire takes it (once) instead of parsing again. The policy is
 * still judged at fire time, on the key read then. Bounded: past `max` the oldest preparation is dropped and that
 * order's fire parses its trade itself, as before (a cancelled order's preparation waits for that too).
 */
import type { OrderSpec } from "./model.js";
import { orderTrade } from "./fire.js";
import { LruMap } from "../../core/lru.js";

type Prepared = { spec: OrderSpec; wallet: string; trade: ReturnType<typeof orderTrade> };

/** Prepared trades by order id, the least recently prepared dropped first. */
export class PreparedTrades {
  private readonly byOrder: LruMap<string, Prepared>;

  constructor(
    private readonly relayTipLamports: bigint,
    max = 1_024,
  ) {
    this.byOrder = new LruMap(max);
  }

  /** Parses the trade of order `id` (this version's `spec`, signing `wallet`) ahead of its fire. */
  prepare(id: string, spec: OrderSpec, wallet: string): void {
    let trade;
    try {
      trade = orderTrade(spec, wallet, this.relayTipLamports);
    } catch {
      // The fire parses again and answers the error itself (as it did before preparing).
      return;
    }
    this.byOrder.set(id, { spec, wallet, trade });
  }

  /** The trade prepared for exactly this version of the order and wallet (given once), else undefined. */
  take(id: string, spec: OrderSpec, wallet: string): ReturnType<typeof orderTrade> | undefined {
    const p = this.byOrder.get(id);
    if (p === undefined) return undefined;
    this.byOrder.delete(id);
    return p.spec === spec && p.wallet === wallet ? p.trade : undefined;
  }

  /** Preparations held. */
  get size(): number {
    return this.byOrder.size;
  }
}
