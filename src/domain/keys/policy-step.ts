/**
 * The record-time step of the key's policy (issue 30: one explicit step of the execution pipeline, called by
 * `recordPending` through the request's spend guard, never decided inside a store wrapper): the priority fee
 * the record pays, and what it reserves against the 24 h caps of the key and the keys above it. The store then
 * inserts the record and the reservation in one database transaction (`insertExecutionReserving`); a cap found
 * passed there comes back here for its refusal text (`capRefusal`).
 */
import { ApiError } from "../../core/errors.js";
import type { NewExecution, SpendReservation, Store } from "../../store/index.js";
import { SpendCapExceededError } from "../../store/index.js";
import { addSpend, noSpend, totalOf, type WorstCaseSpend } from "../execution/worst-case-spend.js";
import {
  contextPolicy,
  dailyCapRefusal,
  dailyCapVerdict,
  dailyCharges,
  type CustodyContext,
} from "./custody-store.js";
import { refusal } from "./scopes.js";
import {
  checkPriorityFee,
  dailyCapDetail,
  priorityFeeLamports,
  SIGNATURE_FEE_LAMPORTS,
  SPEND_WINDOW_MS,
  type PolicyVerdict,
  type SpendPlan,
} from "./spend.js";

/** What the record-time step reads. */
export interface RecordPolicyDeps {
  store: Pick<Store, "spentLamports">;
  clock: () => Date;
  /** Compute-unit limit of an execution kind (for the priority fee it pays). */
  computeUnitLimit: (kind: NewExecution["kind"]) => number;
  /** The SOL balance of a wallet, the bound of what an execution without a body amount can move. */
  balanceOf?: (wallet: string) => Promise<bigint>;
}

/** The step's decision on one record: what its insert reserves (null: nothing, the key has no 24 h cap). */
export interface RecordDecision {
  reservation: SpendReservation | null;
}

/**
 * The worst case of a record's signed transactions (issue 29), or undefined when one of them was signed
 * without the guard's inspection (a chain double that does not call `inspect`).
 */
function signedSpend(ctx: CustodyContext, e: NewExecution): WorstCaseSpend | undefined {
  if (ctx.spends === undefined || e.signatures.length === 0) return undefined;
  let sum = noSpend();
  for (const s of e.signatures) {
    const spend = ctx.spends.get(s);
    if (spend === undefined) return undefined;
    sum = addSpend(sum, spend);
  }
  return sum;
}

/**
 * Lamports one execution record may spend: the worst case of its signed transactions (issue 29); without one,
 * the body's amount (or the signing wallets' balances), fees, tip, rent.
 */
async function executionSpend(
  deps: RecordPolicyDeps,
  ctx: CustodyContext,
  plan: SpendPlan,
  e: NewExecution,
): Promise<bigint> {
  const signed = signedSpend(ctx, e);
  if (signed !== undefined) {
    if (signed.unbounded)
      throw refusal(
        `policy max_sol_per_24h: the spend of this ${plan.kind} cannot be bounded`,
        "max_sol_per_24h",
      );
    return totalOf(signed);
  }
  let amount = plan.amountLamports;
  if (amount === null) {
    if (deps.balanceOf === undefined)
      throw refusal("policy max_sol_per_24h: the spend of this request cannot be bounded", "max_sol_per_24h");
    amount = 0n;
    for (const w of new Set(e.wallets)) amount += await deps.balanceOf(w);
  }
  const price = e.computeUnitPriceMicroLamports ?? 0n;
  const perTx = SIGNATURE_FEE_LAMPORTS + priorityFeeLamports(price, deps.computeUnitLimit(e.kind));
  return amount + plan.rentLamports + plan.tipLamports + BigInt(Math.max(1, e.signatures.length)) * perTx;
}

/** The verdict of the rules decided at record time (priority fee, 24 h cap), nothing reserved. */
export async function recordTimeVerdict(
  deps: RecordPolicyDeps,
  ctx: CustodyContext,
  e: NewExecution,
): Promise<PolicyVerdict | null> {
  const policy = contextPolicy(ctx);
  const plan = ctx.plan;
  if (plan === undefined) return null;
  const fee = priorityFeeLamports(e.computeUnitPriceMicroLamports ?? 0n, deps.computeUnitLimit(e.kind));
  const feeVerdict = checkPriorityFee(policy, plan.kind, fee);
  const charges = dailyCharges(ctx.key);
  if (feeVerdict !== null || charges.length === 0) return feeVerdict;
  let lamports: bigint;
  try {
    lamports = await executionSpend(deps, ctx, plan, e);
  } catch (err) {
    if (err instanceof ApiError) return { rule: "max_sol_per_24h", detail: err.message };
    throw err;
  }
  return dailyCapVerdict(deps, charges, plan.kind, lamports);
}

/**
 * Decides a record before it is written: 403 `max_priority_fee_lamports` when its price passes the key's bound,
 * 403 `max_sol_per_24h` when its spend cannot be bounded; else what its insert reserves. Kept on the context by
 * execution id, where the request's store reads it (custody-store.ts).
 */
export async function decideRecord(
  deps: RecordPolicyDeps,
  ctx: CustodyContext,
  e: NewExecution,
): Promise<RecordDecision> {
  const plan = ctx.plan;
  let decision: RecordDecision = { reservation: null };
  if (plan !== undefined) {
    const fee = priorityFeeLamports(e.computeUnitPriceMicroLamports ?? 0n, deps.computeUnitLimit(e.kind));
    const feeVerdict = checkPriorityFee(contextPolicy(ctx), plan.kind, fee);
    if (feeVerdict !== null) throw refusal(feeVerdict.detail, feeVerdict.rule);
    const charges = dailyCharges(ctx.key);
    if (charges.length > 0) {
      const lamports = await executionSpend(deps, ctx, plan, e);
      const nowMs = deps.clock().getTime();
      const own = charges[0]?.keyId === ctx.key.id ? charges[0] : undefined;
      decision = {
        reservation: {
          keyId: ctx.key.id,
          lamports,
          capLamports: own?.capLamports ?? null,
          nowMs,
          sinceMs: nowMs - SPEND_WINDOW_MS,
          alsoCharge: own === undefined ? charges : charges.slice(1),
        },
      };
    }
  }
  (ctx.recordDecisions ??= new Map()).set(e.id, decision);
  return decision;
}

/** The refusal of a reservation the store found over a cap (nothing was written), or `err` itself. */
export function capRefusal(ctx: CustodyContext, err: unknown): unknown {
  if (!(err instanceof SpendCapExceededError)) return err;
  return dailyCapRefusal(
    dailyCapDetail(ctx.plan?.kind ?? "execution", err.usedLamports, err.capLamports, err.neededLamports),
    err.capKeyId ?? ctx.key.id,
  );
}
