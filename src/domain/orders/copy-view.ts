/** A copy order as the API shows it. */
import { solText } from "../../core/amounts.js";
import { formatUnits } from "../../core/amounts.js";
import { ratioText, type CopySpec } from "./copy.js";

const solOrNull = (v: bigint | null): string | null => (v === null ? null : solText(v));

/** A copy order's parameters as shown. */
export function copySpecView(spec: CopySpec): Record<string, unknown> {
  return {
    kind: "copy",
    side: null,
    mint: null,
    amount: spec.sizing.kind === "sol" ? spec.sizingText : null,
    copy: {
      follow: spec.follow,
      amount: spec.sizing.kind === "sol" ? solText(spec.sizing.lamports) : null,
      ratio: spec.sizing.kind === "ratio" ? ratioText(spec.sizing.millionths) : null,
      sell_sizing: spec.sellSizing,
      buys_only: spec.sides === "buys",
      sells_only: spec.sides === "sells",
      max_per_token: solOrNull(spec.maxPerTokenLamports),
      max_per_day: solOrNull(spec.maxPerDayLamports),
      delay_ms: spec.delayMs,
      max_price_move:
        spec.maxMoveHundredths === null ? null : formatUnits(spec.maxMoveHundredths, 2).replace(/\.?0+$/, ""),
    },
    slippage_bps: Number(spec.slippageBps),
    priority_fee_lamports: spec.priorityFeeLamports === null ? null : spec.priorityFeeLamports.toString(),
    tip_lamports: spec.tipLamports === null ? null : spec.tipLamports.toString(),
  };
}
