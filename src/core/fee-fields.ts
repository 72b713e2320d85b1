/**
 * Issue 22 item 5: the optional per-request `priority_fee` (SOL per transaction, PumpPortal's `priorityFee`)
 * and `tip` (SOL, the relay tip; a bundle's tip) of every execution body, parsed with the SOL amount rules
 * and bounded by the configured maximums.
 */
import { parseDecimal, parseSolAmount, solText } from "./amounts.js";
import { badRequest, REQUEST_FEES } from "./errors.js";
import { fieldOf, type RequestBody } from "./request-fields.js";

/** What a request asked for; an absent field leaves the configured behaviour. */
export interface RequestFees {
  /** Lamports of priority fee per transaction (compute-unit price × limit). */
  priorityFeeLamports?: bigint;
  /** Lamports of relay tip per transaction. */
  tipLamports?: bigint;
}

/** The configured maximums (PRIORITY_FEE_MAX_SOL, TIP_MAX_SOL). */
export interface FeeBounds {
  priorityFeeMaxLamports: bigint;
  tipMaxLamports: bigint;
}

/** The body names of the fields (a PumpPortal-style alias for the priority fee). */
export const PRIORITY_FEE_FIELDS = ["priority_fee", "priorityFee"] as const;
export const TIP_FIELDS = ["tip"] as const;
/** A bundle's tip, under any of its names: the spec's `bundleTip` or the `tip` every execution body takes. */
export const BUNDLE_TIP_FIELDS = ["bundleTip", "bundle_tip", "tip"] as const;

/** A priority fee of 0 SOL or more (0 asks for no priority fee). */
function parsePriorityFee(value: unknown): bigint {
  // 0 is a valid fee, which the positive-amount parser refuses: recognise it first.
  if ((typeof value === "string" || typeof value === "number") && String(value).trim() !== "") {
    const d = parseDecimal(String(value), 9);
    if (d.kind === "ok" && d.scaled === 0n) return 0n;
  }
  const t = REQUEST_FEES.priorityFeeInvalid;
  return parseSolAmount(value, { type: t, invalid: t, decimals: t, positive: t, tooLarge: t });
}

/** A positive tip in lamports. */
function parseTipAmount(value: unknown): bigint {
  const t = REQUEST_FEES.tipInvalid;
  return parseSolAmount(value, { type: t, invalid: t, decimals: t, positive: t, tooLarge: t });
}

/** Refuses a tip above the configured maximum (TIP_MAX_SOL), naming both. */
export function checkTipMax(lamports: bigint, tipMaxLamports: bigint): void {
  if (lamports > tipMaxLamports)
    throw badRequest(REQUEST_FEES.tipTooHigh(solText(lamports), solText(tipMaxLamports)));
}

/**
 * The fee fields of an execution body; 400 for garbage, a negative amount or one above its maximum. A
 * bundle's tip is a field of the bundle (`bundleTip`, alias `tip`): the bundle's parser reads and bounds it
 * once, in the spec's order after the legs, so here a bundle has only its priority fee read.
 */
export function parseRequestFees(body: RequestBody, bounds: FeeBounds, bundle = false): RequestFees {
  const out: RequestFees = {};
  const fee = fieldOf(body, PRIORITY_FEE_FIELDS);
  if (fee !== undefined) {
    const lamports = parsePriorityFee(fee);
    if (lamports > bounds.priorityFeeMaxLamports)
      throw badRequest(
        REQUEST_FEES.priorityFeeTooHigh(solText(lamports), solText(bounds.priorityFeeMaxLamports)),
      );
    out.priorityFeeLamports = lamports;
  }
  if (bundle) return out;
  const tip = fieldOf(body, TIP_FIELDS);
  if (tip !== undefined) {
    const lamports = parseTipAmount(tip);
    checkTipMax(lamports, bounds.tipMaxLamports);
    out.tipLamports = lamports;
  }
  return out;
}

/**
 * The compute-unit price (micro-lamports per CU) that makes a transaction with `computeUnitLimit` pay
 * `lamports` of priority fee: floor(lamports × 10^6 / limit). The runtime charges ceil(price × limit / 10^6),
 * which is then exactly `lamports` whenever the limit is at most 1 000 000 CU, never more.
 */
export function computeUnitPriceFor(lamports: bigint, computeUnitLimit: number): bigint {
  if (computeUnitLimit <= 0) throw new RangeError("computeUnitLimit must be positive");
  return (lamports * 1_000_000n) / BigInt(computeUnitLimit);
}
