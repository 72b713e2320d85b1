/** An order as the API shows it: amounts as decimal text, prices as SOL per whole token. */
import { formatUnits, solText } from "../../core/amounts.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { OrderRecord } from "../../store/index.js";
import { PRICE_DECIMALS, type OrderSpec, type Trigger } from "./model.js";
import { specFromJson } from "./spec.js";
import type { SnipeSpec } from "./snipe-engine.js";
import { snipeSpecView } from "./snipe-view.js";
import type { CopySpec } from "./copy.js";
import { copySpecView } from "./copy-view.js";

/** A price (SOL × 10^18 per whole token) as SOL text without trailing zeros. */
export function priceText(price: bigint): string {
  return formatUnits(price, PRICE_DECIMALS).replace(/\.?0+$/, "") || "0";
}

/** One trigger as shown. */
export function triggerView(t: Trigger): Record<string, unknown> {
  return {
    fires_when: t.direction === "above" ? "at_or_above" : "at_or_below",
    ...(t.level.kind === "price"
      ? { price: priceText(t.level.price) }
      : { sol_out: solText(t.level.lamports) }),
    asked: t.asked,
  };
}

/** The parameters of an order as shown (also a dry run's answer before anything is stored). */
export function specView(spec: OrderSpec): Record<string, unknown> {
  const triggers: Record<string, unknown> = {};
  for (const t of spec.triggers) triggers[t.name] = triggerView(t);
  return {
    kind: spec.kind,
    side: spec.side,
    mint: spec.mint,
    amount: spec.amountText,
    size_units: spec.sizeUnits === null ? null : spec.sizeUnits.toString(),
    triggers,
    trail_percent:
      spec.trailHundredths === null ? null : formatUnits(spec.trailHundredths, 2).replace(/\.?0+$/, ""),
    entry_price: spec.entryPrice === null ? null : priceText(spec.entryPrice),
    // Orders stored before the source was kept measured percent levels from the price at creation.
    entry_source: spec.entryPrice === null ? null : (spec.entrySource ?? "price_at_creation"),
    slippage_bps: Number(spec.slippageBps),
    priority_fee_lamports: spec.priorityFeeLamports === null ? null : spec.priorityFeeLamports.toString(),
    tip_lamports: spec.tipLamports === null ? null : spec.tipLamports.toString(),
    max_retries: spec.maxRetries,
  };
}

/** A stored order as shown. */
export function orderView(r: OrderRecord): Record<string, unknown> {
  const spec = specFromJson(r.spec);
  return {
    id: r.id,
    state: r.state,
    wallet: r.wallet,
    ...(r.kind === "snipe"
      ? snipeSpecView(spec as unknown as SnipeSpec)
      : r.kind === "copy"
        ? copySpecView(spec as unknown as CopySpec)
        : specView(spec)),
    peak_price: r.peak === null ? null : priceText(BigInt(r.peak)),
    attempts: r.attempt,
    triggered_by: r.triggeredBy,
    error: r.error,
    execution_ids: r.executionIds,
    expires_at: r.expiresAt,
    created_at: utcTimestamp(r.createdAt),
    updated_at: utcTimestamp(r.updatedAt),
  };
}
