/**
 * From a validated request and what the service read at creation (the wallet's balance for a percentage size,
 * the wallet's position for percent levels) to the stored order parameters; and their JSON form (amounts as
 * decimal text: JSON numbers lose u64 precision). Pure.
 */
import { percentOfBalance } from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import type { EntrySource, Level, OrderAmount, OrderSpec, Trigger } from "./model.js";
import type { OrderRequest } from "./request.js";
import { levelFromEntry, priceOf } from "./rules.js";
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

/** What the wallet's position in the mint says about its cost (the positions ledger's figures). */
export interface PositionBasis {
  readonly tokensHeld: bigint;
  /** Tokens that arrived outside the service: their cost is unknown. */
  readonly unknownBasisTokens: bigint;
  /** What the known-basis tokens cost, fees, tip and rent included (lamports). */
  readonly costBasis: bigint;
}

/** The entry percent levels are measured from, and where it came from. */
export interface Entry {
  readonly price: bigint;
  readonly source: EntrySource;
}

/**
 * The average entry price of a position's known-basis tokens (SOL × 10^18 per whole token, fees included, as
 * the ledger counts them); null when no token of it has a known cost.
 */
export function positionEntryPrice(p: PositionBasis, decimals: number): bigint | null {
  const known = p.tokensHeld - p.unknownBasisTokens;
  if (known <= 0n || p.costBasis <= 0n) return null;
  return priceOf(p.costBasis, known, decimals);
}

/**
 * The entry of an order: the request's `entry_price`, else (percent levels only) the average entry price of the
 * wallet's position in the mint; a 400 naming the way out when the wallet holds none or its cost is unknown.
 */
export function entryOf(
  req: OrderRequest,
  position: PositionBasis | undefined,
  decimals: number,
): Entry | null {
  if (req.entryPrice !== null) return { price: req.entryPrice, source: "request" };
  if (!req.legs.some((l) => l.form.kind === "percent")) return null;
  if (position === undefined || position.tokensHeld <= 0n) throw badRequest(R.noPosition);
  const price = positionEntryPrice(position, decimals);
  if (price === null) throw badRequest(R.unknownBasis);
  return { price, source: "position" };
}

/** The order's parameters; `entry` (entryOf) turns percent levels into prices. */
export function resolveSpec(
  req: OrderRequest,
  sizeUnits: bigint | null,
  entryFound: Entry | null,
): OrderSpec {
  const entry = entryFound?.price ?? null;
  const triggers: Trigger[] = req.legs.map((l) => {
    let level: Level;
    if (l.form.kind === "price") level = { kind: "price", price: l.form.price };
    else if (l.form.kind === "sol_out") level = { kind: "sol_out", lamports: l.form.lamports };
    else {
      // A percent of no entry is no level (entryOf refuses that case before).
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
    entrySource: entryFound?.source ?? null,
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
