/**
 * Issue 29 (findings 4 and 12): the request key's checks between the build and the signature. The key is
 * re-read (one store read by id) so a freeze, revocation or expiry that committed while the request was
 * building stops it before anything is signed; each compiled transaction's worst case (worst-case-spend.ts) is
 * added to the request's and checked against `max_sol_per_execution`; the figure is kept by signature for
 * the 24 h reservation the record makes; the record-time policy step (policy-step.ts) runs through it too.
 */
import { solText } from "../../core/amounts.js";
import { ApiError } from "../../core/errors.js";
import type { Store } from "../../store/index.js";
import type { SpendGuard } from "../execution/types.js";
import { addSpend, transactionWorstCase, type WorstCaseSpend } from "../execution/worst-case-spend.js";
import { contextPolicy, type CustodyContext } from "./custody-store.js";
import type { Policy } from "./policy.js";
import { authorize, refusal } from "./scopes.js";
import { sol2, type PolicyVerdict } from "./spend.js";
import { CUSTODY } from "./texts.js";
import { capRefusal, decideRecord, recordTimeVerdict, type RecordPolicyDeps } from "./policy-step.js";

/** What the guard reads besides the request's context (the record-time step's collaborators too). */
export interface SpendGuardDeps extends Omit<RecordPolicyDeps, "store"> {
  store: Pick<Store, "findKey"> & RecordPolicyDeps["store"];
}

/** The `max_sol_per_execution` verdict on a request's worst case so far, or null when it passes. */
export function perExecutionVerdict(
  policy: Policy,
  kind: string,
  spend: WorstCaseSpend,
): PolicyVerdict | null {
  const cap = policy.maxSolPerExecution;
  if (cap === undefined) return null;
  if (spend.unbounded)
    return {
      rule: "max_sol_per_execution",
      detail: `policy max_sol_per_execution: the spend of this ${kind} cannot be bounded`,
    };
  // The amount only, as the body-level check: fees, tips and rent have their own rules and count in the 24 h cap.
  if (spend.amount <= cap) return null;
  return {
    rule: "max_sol_per_execution",
    detail: `policy max_sol_per_execution: this ${kind} needs ${sol2(spend.amount)}, at most ${solText(cap)} SOL per execution`,
  };
}

/**
 * The spend guard of one request (see the file comment). `keyCheck: "record"`: the key is not re-read before
 * signing, because the commit that records the execution checks it (a fired order's claim: OrderTransition's
 * `liveKeys`), later than a read here could; only its expiry is checked here, against the key already read.
 */
export function createSpendGuard(
  ctx: CustodyContext,
  deps: SpendGuardDeps,
  keyCheck: "sign" | "record" = "sign",
): SpendGuard {
  const policy = contextPolicy(ctx);
  const capped = policy.maxSolPerExecution !== undefined || policy.maxSolPer24h !== undefined;
  const spends = (ctx.spends ??= new Map());
  return {
    async beforeSign() {
      const key = keyCheck === "record" ? ctx.key : await deps.store.findKey(ctx.key.accountId, ctx.key.id);
      if (key === undefined) throw new ApiError(401, CUSTODY.keyRevoked);
      authorize(key, undefined, deps.clock());
    },
    ...(capped
      ? {
          inspect(tx) {
            const spend = transactionWorstCase(tx);
            // The request's transactions together: a bundle's legs, a consolidation's sources.
            ctx.requestSpend = ctx.requestSpend === undefined ? spend : addSpend(ctx.requestSpend, spend);
            const verdict = perExecutionVerdict(policy, ctx.plan?.kind ?? "execution", ctx.requestSpend);
            if (verdict !== null) {
              if (ctx.dryRun !== true) throw refusal(verdict.detail, verdict.rule);
              ctx.verdict ??= verdict;
            }
            return spend;
          },
        }
      : {}),
    signed(signature, spend) {
      spends.set(signature, spend);
    },
    async beforeRecord(e) {
      await decideRecord(deps, ctx, e);
    },
    refusalOf: (err) => capRefusal(ctx, err),
    verdict: (e) => recordTimeVerdict(deps, ctx, e),
  };
}
