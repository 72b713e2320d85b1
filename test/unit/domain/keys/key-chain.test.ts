/**
 * Issue 29 (key chains), pure half: the intersection of policies, the effective policy of a key from its chain,
 * the chain's verification (deny by default), the charged ancestors, and authorize's refusals for a revoked,
 * expired or frozen ancestor.
 */
import { describe, expect, it } from "vitest";
import {
  ancestorCharges,
  chainRefusal,
  effectivePolicy,
  intersectPolicies,
  verifiedAncestors,
} from "../../../../src/domain/keys/key-chain.js";
import { policyNarrows } from "../../../../src/domain/keys/policy-narrows.js";
import { authorize } from "../../../../src/domain/keys/scopes.js";
import type { Policy } from "../../../../src/domain/keys/policy.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const SOL = 1_000_000_000n;
const now = new Date("2026-11-28T00:00:00Z");
const M1 = "So11111111111111111111111111111111111111112";
const M2 = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const M3 = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";

const key = (over: Partial<KeyRecord>): KeyRecord => keyRecord({ id: 10, name: "k", createdAt: "", ...over });

/** A chain child → parent → grandparent (made by the root key), with the given stored policies. */
function chain(child: object | null, parent: object | null, grand: object | null): KeyRecord {
  const g = key({ id: 3, policy: grand as Record<string, unknown> | null });
  const p = key({ id: 5, createdBy: 3, policy: parent as Record<string, unknown> | null });
  return key({ id: 9, createdBy: 5, policy: child as Record<string, unknown> | null, ancestors: [p, g] });
}

describe("intersectPolicies", () => {
  it("takes the smaller cap, the common allow-list, the union of denials; absent fields stay absent", () => {
    const a: Policy = {
      maxSolPerExecution: 2n * SOL,
      maxSolPer24h: 5n * SOL,
      venues: ["bonding_curve", "launchswap"],
      mintsAllow: [M1, M2],
      mintsDeny: [M3],
    };
    const b: Policy = {
      maxSolPerExecution: SOL,
      maxTipLamports: 1000n,
      venues: ["launchswap"],
      mintsAllow: [M2, M3],
      destinationsAllow: [M1],
      mintsDeny: [M1],
    };
    expect(intersectPolicies(a, b)).toEqual({
      maxSolPerExecution: SOL,
      maxSolPer24h: 5n * SOL,
      maxTipLamports: 1000n,
      venues: ["launchswap"],
      mintsAllow: [M2],
      destinationsAllow: [M1],
      mintsDeny: [M3, M1],
    });
    expect(intersectPolicies({}, {})).toEqual({});
    expect(intersectPolicies(a, {})).toEqual(a);
    expect(intersectPolicies({}, b)).toEqual(b);
  });

  it("an empty intersection allows nothing (it does not fall back to no rule)", () => {
    const r = intersectPolicies(
      { venues: ["bonding_curve"], mintsAllow: [M1] },
      { venues: ["launchswap"], mintsAllow: [M2] },
    );
    expect(r.venues).toEqual([]);
    expect(r.mintsAllow).toEqual([]);
  });

  it("narrows both sides (policyNarrows holds against each input), for a table of pairs", () => {
    const samples: Policy[] = [
      {},
      { maxSolPer24h: SOL },
      { maxSolPer24h: 3n * SOL, maxSolPerExecution: SOL },
      { venues: ["launchswap"], mintsDeny: [M1] },
      { mintsAllow: [M1, M2], destinationsAllow: [] },
      { destinationsAllow: [M3], maxPriorityFeeLamports: 5n },
    ];
    for (const a of samples)
      for (const b of samples) {
        const r = intersectPolicies(a, b);
        expect(policyNarrows(a, r)).toBe(true);
        expect(policyNarrows(b, r)).toBe(true);
      }
  });
});

describe("effectivePolicy and the chain walk", () => {
  it("is the key's own policy narrowed by every ancestor's", () => {
    const k = chain(
      { max_sol_per_24h: "5" },
      { max_sol_per_24h: "2", venues: ["launchswap"] },
      { mints_deny: [M1] },
    );
    expect(effectivePolicy(k)).toEqual({ maxSolPer24h: 2n * SOL, venues: ["launchswap"], mintsDeny: [M1] });
    expect(ancestorCharges(k)).toEqual([{ keyId: 5, capLamports: 2n * SOL }]);
  });

  it("a key of the root key is held to its own policy only; so is the root key", () => {
    expect(effectivePolicy(key({ policy: { max_sol_per_24h: "1" }, ancestors: undefined }))).toEqual({
      maxSolPer24h: SOL,
    });
    expect(effectivePolicy(key({ root: true, policy: { max_tip_lamports: "5" } }))).toEqual({
      maxTipLamports: 5n,
    });
  });

  it("refuses a key read without its chain, or with a broken one (deny by default)", () => {
    const good = chain(null, null, null);
    expect(verifiedAncestors(good)?.map((a) => a.id)).toEqual([5, 3]);
    const unread = { ...good, ancestors: undefined };
    expect(verifiedAncestors(unread)).toBeNull();
    expect(() => effectivePolicy(unread)).toThrow(/without its chain/);
    expect(() => ancestorCharges(unread)).toThrow(/without its chain/);
    // Missing the grandparent (its last ancestor was made by a sub-key).
    expect(verifiedAncestors({ ...good, ancestors: good.ancestors!.slice(0, 1) })).toBeNull();
    // Out of order, or of another account.
    expect(verifiedAncestors({ ...good, ancestors: [...good.ancestors!].reverse() })).toBeNull();
    const foreign = good.ancestors!.map((a) => ({ ...a, accountId: 2 }));
    expect(verifiedAncestors({ ...good, ancestors: foreign })).toBeNull();
    expect(chainRefusal(unread, now)?.status).toBe(401);
  });
});

describe("authorize with ancestors", () => {
  const withAncestor = (over: Partial<KeyRecord>): KeyRecord => {
    const k = chain(null, null, null);
    return { ...k, ancestors: [{ ...k.ancestors![0]!, ...over }, k.ancestors![1]!] };
  };

  it("a revoked or expired ancestor is 401, a frozen one 403 frozen naming it", () => {
    expect(() => authorize(withAncestor({ revokedAt: "2026-11-27T00:00:00Z" }), "trade", now)).toThrow(
      expect.objectContaining({ status: 401, message: "API key revoked" }),
    );
    expect(() => authorize(withAncestor({ expiresAt: "2026-11-27T00:00:00Z" }), "trade", now)).toThrow(
      expect.objectContaining({ status: 401, message: "API key expired" }),
    );
    expect(() => authorize(withAncestor({ frozen: true }), "trade", now)).toThrow(
      expect.objectContaining({
        status: 403,
        message: "API key is frozen (key 5, above it, is frozen)",
        extra: { rule: "frozen" },
      }),
    );
    expect(() => authorize(withAncestor({}), "trade", now)).not.toThrow();
  });

  it("a revoked ancestor is 401 even while an ancestor is frozen; the key's own freeze reads first", () => {
    const k = chain(null, null, null);
    const both = {
      ...k,
      ancestors: [
        { ...k.ancestors![0]!, frozen: true },
        { ...k.ancestors![1]!, revokedAt: "x" },
      ],
    };
    expect(() => authorize(both, "trade", now)).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => authorize({ ...withAncestor({ frozen: true }), frozen: true }, "trade", now)).toThrow(
      expect.objectContaining({ message: "API key is frozen" }),
    );
  });
});
