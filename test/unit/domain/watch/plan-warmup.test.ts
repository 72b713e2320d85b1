/** The watch's trade-plan warm-up: the default wallet first, capped, and the plans memoized for the first buy. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { warmTradePlans } from "../../../../src/domain/watch/plan-warmup.js";
import { tradePlanMemoSize, tradeReadPlanOf } from "../../../../src/launch/trade-plan-memo.js";

const key = () => Keypair.generate().publicKey.toBase58();

describe("warmTradePlans", () => {
  it("memoizes the plans of the default wallet first, up to the cap", () => {
    const mints = [key(), key(), key()];
    const other = { publicKey: key(), isDefault: false };
    const main = { publicKey: key(), isDefault: true };
    const before = tradePlanMemoSize();
    expect(warmTradePlans(mints, [other, main], 4)).toBe(4);
    expect(tradePlanMemoSize() - before).toBe(4);
    // The default wallet's three plans are kept: the first buy takes the same (frozen) plan object.
    const plan = tradeReadPlanOf(mints[2]!, main.publicKey, null);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(tradePlanMemoSize() - before).toBe(4);
    // The other wallet got one plan (the cap), for the first mint.
    tradeReadPlanOf(mints[0]!, other.publicKey, null);
    expect(tradePlanMemoSize() - before).toBe(4);
    tradeReadPlanOf(mints[1]!, other.publicKey, null);
    expect(tradePlanMemoSize() - before).toBe(5);
  });
});
