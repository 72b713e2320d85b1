/** Issue 29: policyNarrows / policyLoosenings — "at least as strict", field by field. */
import { describe, expect, it } from "vitest";
import type { Policy } from "../../../../src/domain/keys/policy.js";
import { policyLoosenings, policyNarrows } from "../../../../src/domain/keys/policy-narrows.js";

const A = "MintA111111111111111111111111111111111111111";
const B = "MintB111111111111111111111111111111111111111";
const C = "MintC111111111111111111111111111111111111111";

describe("policyNarrows", () => {
  it("an empty outer policy is narrowed by anything; a policy narrows itself", () => {
    expect(policyNarrows({}, {})).toBe(true);
    expect(policyNarrows({}, { maxSolPer24h: 1n, venues: ["launchswap"] })).toBe(true);
    const p: Policy = {
      maxSolPerExecution: 1n,
      maxSolPer24h: 2n,
      maxPriorityFeeLamports: 3n,
      maxTipLamports: 0n,
      venues: ["bonding_curve"],
      mintsAllow: [A],
      mintsDeny: [B],
      destinationsAllow: [],
    };
    expect(policyNarrows(p, p)).toBe(true);
    expect(policyLoosenings(p, {})).toEqual([
      "max_sol_per_execution",
      "max_sol_per_24h",
      "max_priority_fee_lamports",
      "max_tip_lamports",
      "venues",
      "mints_allow",
      "destinations_allow",
      "mints_deny",
    ]);
  });

  it.each([
    ["maxSolPerExecution", "max_sol_per_execution"],
    ["maxSolPer24h", "max_sol_per_24h"],
    ["maxPriorityFeeLamports", "max_priority_fee_lamports"],
    ["maxTipLamports", "max_tip_lamports"],
  ] as const)("cap %s: present and ≤", (field, rule) => {
    const outer: Policy = { [field]: 10n };
    expect(policyLoosenings(outer, { [field]: 10n })).toEqual([]);
    expect(policyLoosenings(outer, { [field]: 9n })).toEqual([]);
    expect(policyLoosenings(outer, { [field]: 0n })).toEqual([]);
    expect(policyLoosenings(outer, { [field]: 11n })).toEqual([rule]);
    expect(policyLoosenings(outer, {})).toEqual([rule]);
    // The inner may add a cap the outer lacks.
    expect(policyLoosenings({}, { [field]: 1n })).toEqual([]);
  });

  it.each([
    ["venues", "venues", ["bonding_curve"], ["launchswap"]],
    ["mintsAllow", "mints_allow", [A], [C]],
    ["destinationsAllow", "destinations_allow", [A], [C]],
  ] as const)("allow-list %s: present and ⊆", (field, rule, one, another) => {
    const outer = { [field]: [...one, ...another] } as Policy;
    expect(policyLoosenings(outer, { [field]: [...one] } as Policy)).toEqual([]);
    expect(policyLoosenings(outer, { [field]: [...another, ...one] } as Policy)).toEqual([]);
    expect(
      policyLoosenings({ [field]: [...one] } as Policy, { [field]: [...one, ...another] } as Policy),
    ).toEqual([rule]);
    expect(policyLoosenings(outer, {})).toEqual([rule]);
  });

  it("an empty allow-list stays empty (destinations_allow: [] = own wallets only)", () => {
    expect(policyNarrows({ destinationsAllow: [] }, { destinationsAllow: [] })).toBe(true);
    expect(policyNarrows({ destinationsAllow: [] }, { destinationsAllow: [A] })).toBe(false);
    expect(policyNarrows({ destinationsAllow: [] }, {})).toBe(false);
  });

  it("mints_deny: ⊇ the outer's", () => {
    expect(policyLoosenings({ mintsDeny: [A] }, { mintsDeny: [A] })).toEqual([]);
    expect(policyLoosenings({ mintsDeny: [A] }, { mintsDeny: [B, A] })).toEqual([]);
    expect(policyLoosenings({ mintsDeny: [A, B] }, { mintsDeny: [A] })).toEqual(["mints_deny"]);
    expect(policyLoosenings({ mintsDeny: [A] }, {})).toEqual(["mints_deny"]);
    expect(policyLoosenings({ mintsDeny: [] }, {})).toEqual([]);
    expect(policyLoosenings({}, { mintsDeny: [A] })).toEqual([]);
  });
});
