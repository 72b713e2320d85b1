/** The watch's trade-plan warm-up: the default wallet first, capped, and the plans memoized for the first buy. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { warmTradePlans } from "../../../../src/domain/watch/plan-warmup.js";
import { hasTradePlan, tradeReadPlanOf } from "../../../../src/launch/trade-plan-memo.js";

const key = () => Keypair.generate().publicKey.toBase58();

describe("warmTradePlans", () => {
  // The memo is shared by every file of the in-process pool (and may be full): what is checked is which plans
  // it holds, not how many it holds.
  it("memoizes the plans of the default wallet first, up to the cap", () => {
    const mints = [key(), key(), key()];
    const other = { publicKey: key(), isDefault: false };
    const main = { publicKey: key(), isDefault: true };
    expect(warmTradePlans(mints, [other, main], 4)).toBe(4);
    // The default wallet's three plans are kept: the first buy takes the same (frozen) plan object.
    for (const m of mints) expect(hasTradePlan(m, main.publicKey, null)).toBe(true);
    expect(Object.isFrozen(tradeReadPlanOf(mints[2]!, main.publicKey, null))).toBe(true);
    // The other wallet got one plan (the cap), for the first mint.
    expect(hasTradePlan(mints[0]!, other.publicKey, null)).toBe(true);
    expect(hasTradePlan(mints[1]!, other.publicKey, null)).toBe(false);
    expect(hasTradePlan(mints[2]!, other.publicKey, null)).toBe(false);
  });
});
