/**
 * What an execution request may spend, read from its parsed intent by its kind's planner (each descriptor's
 * `plan`), and the policy rules that can be decided from it before anything is signed. Pure.
 */
import { formatUnits, solText } from "../../core/amounts.js";
import type { RequestFees } from "../../core/fee-fields.js";
import type { Policy, PolicyRule, Venue } from "./policy.js";

/** The word of an execution kind a refusal uses ("this trade needs …"): its descriptor's `kind`. */
export type SpendKind = string;

/** The window `max_sol_per_24h` sums spends over: the 24 hours before now. */
export const SPEND_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Base fee of one signature. */
export const SIGNATURE_FEE_LAMPORTS = 5_000n;
/** Upper bound of the rent a create pays (mint, metadata, curve and its token account, creator vault). */
export const CREATE_RENT_BOUND_LAMPORTS = 30_000_000n;
/** Rent of one associated token account a token transfer may create. */
export const TOKEN_ACCOUNT_RENT_LAMPORTS = 2_039_280n;

/** What one execution request may spend, as far as its body tells. */
export interface SpendPlan {
  kind: SpendKind;
  /** SOL the request sends or buys with; null when the body does not bound it (then the wallet's balance does). */
  amountLamports: bigint | null;
  /** Rent the execution may pay on top. */
  rentLamports: bigint;
  /** Tip of the whole request (relay tip per transaction, or the bundle's tip). */
  tipLamports: bigint;
  /** The request's own priority fee per transaction (issue 22), when it set one. */
  priorityFeeLamports?: bigint;
  mints: string[];
  /** Addresses SOL or tokens are paid to (transfer, consolidate, split). */
  destinations: string[];
  /**
   * Venues the body alone decides: launchswap for an explicit pool, bonding_curve for a create (its token
   * starts on the curve). A trade routed by the curve's state is checked after routing (`venueVerdict`).
   */
  venues: Venue[];
  /** Wallets the body names as signers; `usesDefault` when a signer is the account's default wallet. */
  signers: string[];
  usesDefault: boolean;
}

/** A refusal decided by a policy rule. */
export interface PolicyVerdict {
  rule: PolicyRule;
  detail: string;
}

/** SOL with at least 2 decimals and no trailing zeros beyond them ("9.80", "0.50", "0.000005"). */
export function sol2(lamports: bigint): string {
  const s = formatUnits(lamports, 9).replace(/0+$/, "");
  const [whole, frac = ""] = s.split(".");
  return `${whole}.${frac.padEnd(2, "0")}`;
}

/**
 * The spend plan of an execution request from its parsed intent: the request's tip and priority fee, then what
 * the kind's planner reads from the intent (its descriptor's `plan`).
 */
export function spendPlanOf<I>(
  kind: SpendKind,
  planner: (intent: I, plan: SpendPlan) => void,
  intent: I,
  relayTipLamports: bigint,
  fees: RequestFees = {},
): SpendPlan {
  const plan: SpendPlan = {
    kind,
    amountLamports: 0n,
    rentLamports: 0n,
    tipLamports: fees.tipLamports ?? relayTipLamports,
    ...(fees.priorityFeeLamports !== undefined ? { priorityFeeLamports: fees.priorityFeeLamports } : {}),
    mints: [],
    destinations: [],
    venues: [],
    signers: [],
    usesDefault: false,
  };
  planner(intent, plan);
  return plan;
}

/** Adds a signer the body names to `plan`, or marks that the key's default wallet signs (`w` absent). */
export function addSigner(plan: SpendPlan, w: string | undefined | null): void {
  if (w === undefined || w === null) plan.usesDefault = true;
  else plan.signers.push(w);
}

/**
 * The rules decidable from the body alone: mints, destinations (the account's own wallets always allowed),
 * explicit venue, tip, SOL per execution. Null when the request passes them.
 */
export function checkPlan(
  policy: Policy,
  plan: SpendPlan,
  ownWallets: ReadonlySet<string>,
): PolicyVerdict | null {
  for (const mint of plan.mints) {
    if (policy.mintsDeny?.includes(mint) === true)
      return { rule: "mints_deny", detail: `policy mints_deny: mint ${mint} is denied for this key` };
    if (policy.mintsAllow !== undefined && !policy.mintsAllow.includes(mint))
      return { rule: "mints_allow", detail: `policy mints_allow: mint ${mint} is not allowed for this key` };
  }
  if (policy.destinationsAllow !== undefined) {
    for (const d of plan.destinations) {
      if (!ownWallets.has(d) && !policy.destinationsAllow.includes(d))
        return {
          rule: "destinations_allow",
          detail: `policy destinations_allow: destination ${d} is not allowed for this key`,
        };
    }
  }
  for (const venue of plan.venues) {
    const v = venueVerdict(policy, venue);
    if (v !== null) return v;
  }
  if (plan.priorityFeeLamports !== undefined) {
    const fee = checkPriorityFee(policy, plan.kind, plan.priorityFeeLamports);
    if (fee !== null) return fee;
  }
  if (policy.maxTipLamports !== undefined && plan.tipLamports > policy.maxTipLamports)
    return {
      rule: "max_tip_lamports",
      detail: `policy max_tip_lamports: this ${plan.kind} tips ${plan.tipLamports} lamports, at most ${policy.maxTipLamports} allowed`,
    };
  if (
    policy.maxSolPerExecution !== undefined &&
    plan.amountLamports !== null &&
    plan.amountLamports > policy.maxSolPerExecution
  )
    return {
      rule: "max_sol_per_execution",
      detail: `policy max_sol_per_execution: this ${plan.kind} needs ${sol2(plan.amountLamports)}, at most ${solText(policy.maxSolPerExecution)} SOL per execution`,
    };
  return null;
}

/** The refusal of a venue the policy does not list, or null (also used once a trade is routed). */
export function venueVerdict(policy: Policy, venue: Venue): PolicyVerdict | null {
  if (policy.venues === undefined || policy.venues.includes(venue)) return null;
  return { rule: "venues", detail: `policy venues: the ${venue} venue is not allowed for this key` };
}

/** The priority fee of one transaction: ceil(price × limit / 10^6) lamports. */
export function priorityFeeLamports(microLamportsPerCu: bigint, computeUnitLimit: number): bigint {
  return (microLamportsPerCu * BigInt(computeUnitLimit) + 999_999n) / 1_000_000n;
}

/** The refusal of a priority fee above the policy's bound, or null. */
export function checkPriorityFee(policy: Policy, kind: SpendKind, feeLamports: bigint): PolicyVerdict | null {
  if (policy.maxPriorityFeeLamports === undefined || feeLamports <= policy.maxPriorityFeeLamports)
    return null;
  return {
    rule: "max_priority_fee_lamports",
    detail: `policy max_priority_fee_lamports: this ${kind} pays a priority fee of ${feeLamports} lamports, at most ${policy.maxPriorityFeeLamports} allowed`,
  };
}

/** The refusal text of the rolling 24 h cap. */
export function dailyCapDetail(kind: SpendKind, used: bigint, cap: bigint, needed: bigint): string {
  return `policy max_sol_per_24h: ${sol2(used)} of ${solText(cap)} SOL used, this ${kind} needs ${sol2(needed)}`;
}
