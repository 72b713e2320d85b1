/**
 * What an execution request may spend, read from its body with the endpoints' own parsers, and the policy
 * rules that can be decided from it before anything is signed. Pure.
 */
import { formatUnits, solText } from "../../core/amounts.js";
import type { RequestFees } from "../../core/fee-fields.js";
import type { RequestBody } from "../../core/request-fields.js";
import { type BundleLimits, parseBundleRequest } from "../bundle/shape.js";
import { parseClaimRequest } from "../cashback/rules.js";
import { parseCreateRequest } from "../create/request.js";
import { parseConsolidateRequest } from "../sol/consolidate-request.js";
import { parseSplitRequest } from "../sol/split-request.js";
import { parseTransferRequest } from "../sol/transfer-request.js";
import { parseTradeRequest } from "../trade/request.js";
import type { Policy, PolicyRule, Venue } from "./policy.js";

/** The execution endpoints and the word a refusal uses for them ("this trade needs …"). */
export const EXECUTION_ROUTES = {
  "/v1/trades/execute": "trade",
  "/v1/laser/create": "create",
  "/v1/laser/bundle": "bundle",
  "/v1/cashback/claim/execute": "claim",
  "/v1/sol/transfer/execute": "transfer",
  "/v1/sol/consolidate/execute": "consolidate",
  "/v1/sol/split/execute": "split",
} as const;
export type SpendKind = (typeof EXECUTION_ROUTES)[keyof typeof EXECUTION_ROUTES];

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
 * The spend plan of an execution request, or undefined when its body is invalid (the endpoint then answers
 * its own 400 before anything is recorded).
 */
export function planSpend(
  kind: SpendKind,
  body: unknown,
  relayTipLamports: bigint,
  limits: BundleLimits,
  fees: RequestFees = {},
): SpendPlan | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  try {
    return planSpendOrThrow(kind, body as RequestBody, relayTipLamports, limits, fees);
  } catch {
    return undefined;
  }
}

/**
 * The spend plan of an execution request; throws the 400 its endpoint answers for `b` (the endpoint's own
 * parser, so its texts in its order; the bundle's tip bounded by `limits`).
 */
export function planSpendOrThrow(
  kind: SpendKind,
  b: RequestBody,
  relayTipLamports: bigint,
  limits: BundleLimits,
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
  const signer = (w: string | undefined | null): void => {
    if (w === undefined || w === null) plan.usesDefault = true;
    else plan.signers.push(w);
  };
  switch (kind) {
    case "trade": {
      const t = parseTradeRequest(b);
      plan.mints = [t.mint];
      if (t.pool !== null) plan.venues.push("launchswap");
      signer(t.wallet);
      // A SOL buy spends its amount; a token-unit buy is bounded by the wallet's balance; a sell spends fees.
      if (t.action === "buy") plan.amountLamports = t.amount.kind === "sol" ? t.amount.lamports : null;
      break;
    }
    case "create": {
      const c = parseCreateRequest(b);
      signer(c.wallet);
      plan.amountLamports = c.initialBuy?.lamports ?? 0n;
      plan.rentLamports = CREATE_RENT_BOUND_LAMPORTS;
      plan.venues.push("bonding_curve");
      break;
    }
    case "bundle": {
      const r = parseBundleRequest(b, limits);
      plan.tipLamports = r.tipLamports;
      let total = 0n;
      let bounded = true;
      for (const leg of r.legs) {
        signer(leg.wallet);
        if (leg.type === "create") {
          total += leg.create.initialBuy?.lamports ?? 0n;
          plan.rentLamports += CREATE_RENT_BOUND_LAMPORTS;
        } else if (leg.type === "buy") {
          if (leg.denominatedInSol) total += leg.amount;
          else bounded = false;
        }
        if (leg.type !== "create" && leg.pool !== undefined) plan.venues.push("launchswap");
      }
      if (r.shape === "create-led") plan.venues.push("bonding_curve");
      plan.venues = [...new Set(plan.venues)];
      if (r.shape === "existing-token") plan.mints = [r.mint];
      plan.amountLamports = bounded ? total : null;
      break;
    }
    case "claim":
      signer(parseClaimRequest(b).wallet);
      break;
    case "transfer": {
      const t = parseTransferRequest(b);
      plan.destinations = [t.destination];
      signer(t.source);
      if (t.asset.kind === "sol") plan.amountLamports = t.asset.lamports;
      else {
        plan.mints = [t.asset.mint];
        plan.rentLamports = TOKEN_ACCOUNT_RENT_LAMPORTS;
      }
      break;
    }
    case "consolidate": {
      const c = parseConsolidateRequest(b);
      plan.destinations = [c.destination];
      // No sources: every wallet the key may use (the custody store filters the list).
      plan.signers = c.sources ?? [];
      plan.amountLamports = null;
      break;
    }
    case "split": {
      const r = parseSplitRequest(b);
      plan.destinations = r.destinations.map((d) => d.wallet);
      signer(r.source);
      plan.amountLamports = null;
      break;
    }
  }
  return plan;
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
