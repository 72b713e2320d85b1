/** A snipe order as the API shows it. */
import { solText } from "../../core/amounts.js";
import type { SnipeSpec } from "./snipe-engine.js";

/** A snipe order's parameters as shown. */
export function snipeSpecView(spec: SnipeSpec): Record<string, unknown> {
  const r = spec.rule;
  return {
    kind: "snipe",
    side: "buy",
    mint: null,
    amount: spec.amountText,
    rule: {
      creators: r.creators,
      name_pattern: r.namePattern,
      symbol_pattern: r.symbolPattern,
      mayhem: r.mayhem,
      cashback: r.cashback,
      min_initial_buy: r.minInitialBuyLamports === null ? null : solText(r.minInitialBuyLamports),
      max_initial_buy: r.maxInitialBuyLamports === null ? null : solText(r.maxInitialBuyLamports),
      max_per_hour: r.maxPerHour,
    },
    slippage_bps: Number(spec.slippageBps),
    priority_fee_lamports: spec.priorityFeeLamports === null ? null : spec.priorityFeeLamports.toString(),
    tip_lamports: spec.tipLamports === null ? null : spec.tipLamports.toString(),
  };
}
