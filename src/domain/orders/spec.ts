/**
 * From a validated request and what the chain said at creation (the price of the order's size now, the
 * wallet's balance for a percentage size) to the stored order parameters; and their JSON form (amounts as
 * decimal text: JSON numbers lose u64 precision). Pure.
 */
import { percentOfBalance } from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import type { Level, OrderAmount, OrderSpec, Trigger } from "./model.js";
import type { OrderRequest } from "./request.js";
import { levelFromEntry } from "./rules.js";
import { ORDER_RULES as R } from "./texts.js";

/** What the service learnt from the venue at creation. */
export interface CreationState {
  /** The wallet's token balance (units), for a percentage sell's size. */
  readonly tokenBalance: bigint;
}

/** The token units a sell order's price is computed for; null for buys. */
export function sizeUnitsOf(amount: OrderAmount, tokenBalance: bigint): bigint | null {
  if (amount.kind === "sol") return null;
  if (amount.kind === "tokens") return amount.units;
  return percentOfBalance(tokenBalance, amount.hundredths);
}

/**
 * The order's parameters; `priceNow` (the price of its size now, or null when nothing can be quoted) is the
 * entry price of percent levels when the request gave none.
 */
export function resolveSpec(req: OrderRequest, sizeUnits: bigint | null, priceNow: bigint | null): OrderSpec {
  const needsEntry = req.legs.some((l) => l.form.kind === "percent");
  const entry = req.entryPrice ?? (needsEntry ? priceNow : null);
  const triggers: Trigger[] = req.legs.map((l) => {
    let level: Level;
    if (l.form.kind === "price") level = { kind: "price", price: l.form.price };
    else if (l.form.kind === "sol_out") level = { kind: "sol_out", lamports: l.form.lamports };
    else {
      // The entry is the request's or the price now; a percent of nothing is no level.
      const p = entry === null ? null : levelFromEntry(entry, l.form.hundredths);
      if (p === null) throw badRequest(R.levelPositive(Object.keys(l.asked)[0] ?? "percent"));
      level = { kind: "price", price: p };
    }
    return { name: l.name, direction: l.direction, level, asked: l.asked };
  });
  return {
    kind: req.kind,
    side: req.side,
    mint: req.mint,
    amount: req.amount,
    amountText: req.amountText,
    sizeUnits,
    triggers,
    trailHundredths: req.trailHundredths,
    entryPrice: entry,
    slippageBps: req.slippageBps,
    priorityFeeLamports: req.fees.priorityFeeLamports ?? null,
    tipLamports: req.fees.tipLamports ?? null,
    maxRetries: req.maxRetries,
  };
}

// bigint ⇄ text through JSON: every bigint is written as { "$n": "123" }.
const replacer = (_k: string, v: unknown): unknown => (typeof v === "bigint" ? { $n: v.toString() } : v);
const reviver = (_k: string, v: unknown): unknown =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { $n?: unknown }).$n === "string"
    ? BigInt((v as { $n: string }).$n)
    : v;

/** The stored text of a spec. */
export function specToJson(spec: OrderSpec): string {
  return JSON.stringify(spec, replacer);
}

/** A stored spec back (it was validated before it was stored). */
export function specFromJson(json: string): OrderSpec {
  return JSON.parse(json, reviver) as OrderSpec;
}
