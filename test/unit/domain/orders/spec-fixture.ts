/** An order spec for the unit tests of the order rules: a take-profit selling 1,000,000 units, `over` on top. */
import type { OrderSpec } from "../../../../src/domain/orders/model.js";

/** The spec (mint "M" unless `over` names one). */
export function orderSpec(over: Partial<OrderSpec> = {}): OrderSpec {
  return {
    kind: "take_profit",
    side: "sell",
    mint: "M",
    amount: { kind: "tokens", units: 1_000_000n },
    amountText: "1000000",
    sizeUnits: 1_000_000n,
    triggers: [],
    trailHundredths: null,
    entryPrice: null,
    slippageBps: 200n,
    priorityFeeLamports: null,
    tipLamports: null,
    maxRetries: 2,
    ...over,
  };
}
