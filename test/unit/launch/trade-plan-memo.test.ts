/** The trade read plan memo: the same plan for the same keys, equal to a fresh plan, one per triple, bounded. */
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { planText, tradeReadPlan } from "../../../src/launch/trade-accounts.js";
import { tradePlanMemoSize, tradeReadPlanOf } from "../../../src/launch/trade-plan-memo.js";
import { key } from "../../helpers/fixtures.js";

const text = (n: number): string => key(n).toBase58();

describe("trade plan memo", () => {
  it("a repeat gives the same (frozen) plan, equal to tradeReadPlan's, with its base58 texts", () => {
    const plan = tradeReadPlanOf(text(1), text(2), null);
    expect(tradeReadPlanOf(text(1), text(2), null)).toBe(plan);
    expect(Object.isFrozen(plan)).toBe(true);
    const fresh = tradeReadPlan({ mint: key(1), user: key(2) });
    expect(plan.addresses.map((a) => a.toBase58())).toEqual(fresh.addresses.map((a) => a.toBase58()));
    expect(plan.addressTexts).toEqual(fresh.addresses.map((a) => a.toBase58()));
    expect(planText(plan, "mint")).toBe(text(1));
    expect(planText(plan, "user")).toBe(text(2));
  });

  it("another user, mint or pool is another plan", () => {
    const plan = tradeReadPlanOf(text(3), text(4), null);
    expect(tradeReadPlanOf(text(3), text(5), null)).not.toBe(plan);
    expect(tradeReadPlanOf(text(6), text(4), null)).not.toBe(plan);
    const pooled = tradeReadPlanOf(text(3), text(4), text(7));
    expect(pooled).not.toBe(plan);
    expect(pooled.explicitPool?.toBase58()).toBe(text(7));
  });

  it("keeps at most 1,024 plans", () => {
    const mint = (i: number): string => {
      const bytes = Buffer.alloc(32, 9);
      bytes.writeUInt32LE(i);
      return new PublicKey(bytes).toBase58();
    };
    for (let i = 0; i < 1_100; i++) tradeReadPlanOf(mint(i), text(2), null);
    expect(tradePlanMemoSize()).toBe(1_024);
  });
});
