/**
 * Issue 29: "at least as strict" for key policies. A key may only hand on (or set on another key) a policy that
 * narrows its own: every limit it is under stays, as tight or tighter. Pure; used by can-manage.ts.
 */
import type { Policy, PolicyRule } from "./policy.js";

type Cap = "maxSolPerExecution" | "maxSolPer24h" | "maxPriorityFeeLamports" | "maxTipLamports";

const CAPS: readonly [Cap, PolicyRule][] = [
  ["maxSolPerExecution", "max_sol_per_execution"],
  ["maxSolPer24h", "max_sol_per_24h"],
  ["maxPriorityFeeLamports", "max_priority_fee_lamports"],
  ["maxTipLamports", "max_tip_lamports"],
];

// Allow-lists: when the outer policy has one, the inner must have one that lists nothing more.
const ALLOW_LISTS: readonly ["venues" | "mintsAllow" | "destinationsAllow", PolicyRule][] = [
  ["venues", "venues"],
  ["mintsAllow", "mints_allow"],
  ["destinationsAllow", "destinations_allow"],
];

function subset(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((x) => outer.includes(x));
}

/**
 * The fields of `inner` that are looser than `outer` (empty: `inner` is at least as strict). Caps: present and
 * ≤ when `outer` has them; `venues`, `mints_allow`, `destinations_allow`: present and ⊆ when `outer` has them;
 * `mints_deny`: ⊇ `outer`'s. A field `outer` leaves out does not restrict, so `inner` may set it freely.
 */
export function policyLoosenings(outer: Policy, inner: Policy): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const [field, rule] of CAPS) {
    const o = outer[field];
    const i = inner[field];
    if (o !== undefined && (i === undefined || i > o)) out.push(rule);
  }
  for (const [field, rule] of ALLOW_LISTS) {
    const o = outer[field];
    const i = inner[field];
    if (o !== undefined && (i === undefined || !subset(i, o))) out.push(rule);
  }
  if (outer.mintsDeny !== undefined && !subset(outer.mintsDeny, inner.mintsDeny ?? []))
    out.push("mints_deny");
  return out;
}

/** Whether `inner` is at least as strict as `outer` in every field (see policyLoosenings). */
export function policyNarrows(outer: Policy, inner: Policy): boolean {
  return policyLoosenings(outer, inner).length === 0;
}
