/** The watch's trade-plan warm-up: the default wallet first, capped, and the plans memoized for the first buy. */
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { describe, expect, it } from "vitest";
import { warmFirstBuys, warmTradePlans } from "../../../../src/domain/watch/plan-warmup.js";
import { installPdaMemo } from "../../../../src/launch/pda-memo.js";
import { LAUNCH_PROGRAM_ID } from "../../../../src/launch/programs.js";
import type { AccountInfo } from "../../../../src/chain/rpc-client.js";
import type { LaunchGlobal } from "../../../../src/launch/state.js";
import type { TradeReadPlan } from "../../../../src/launch/trade-accounts.js";
import { hasTradePlan, tradeReadPlanOf } from "../../../../src/launch/trade-plan-memo.js";
import { buildCurveBuyExactQuoteInV3 } from "../../../../src/launch/v3-instructions.js";
import { bondingCurveData, key as fixtureKey, mintData } from "../../../helpers/fixtures.js";

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

// A fresh SOL curve of `mint` and `user`'s own account in the warm state, the rest absent.
async function warmBuy(plan: TradeReadPlan): Promise<{ accounts: (AccountInfo | null)[]; slot: number }> {
  const curve = await bondingCurveData();
  const accounts = plan.addresses.map((a): AccountInfo | null => {
    if (a.equals(plan.keys.mint))
      return {
        lamports: 1_461_600n,
        owner: TOKEN_PROGRAM_ID,
        data: mintData({ supply: 10n ** 15n, decimals: 6 }),
        executable: false,
      };
    if (a.equals(plan.keys.curve))
      return {
        lamports: 2_000_000_000n,
        owner: LAUNCH_PROGRAM_ID,
        data: Buffer.concat([curve, Buffer.alloc(26)]),
        executable: false,
      };
    if (a.equals(plan.keys.user))
      return {
        lamports: 10n ** 10n,
        owner: SystemProgram.programId,
        data: Buffer.alloc(0),
        executable: false,
      };
    return null;
  });
  return { accounts, slot: 1 };
}

describe("warmFirstBuys", () => {
  const global = {
    feeRecipient: fixtureKey(4),
    feeRecipients: Array<PublicKey>(7).fill(PublicKey.default),
    reservedFeeRecipient: fixtureKey(5),
    reservedFeeRecipients: Array<PublicKey>(7).fill(PublicKey.default),
    buybackFeeRecipients: [fixtureKey(6), ...Array<PublicKey>(7).fill(PublicKey.default)],
  } as unknown as LaunchGlobal;

  it("derives the first v3 buy's program addresses of a warm curve, so the buy derives none", async () => {
    const memo = installPdaMemo();
    const mint = key();
    const user = key();
    const warm = new Map<string, { accounts: (AccountInfo | null)[]; slot: number }>();
    const plan = tradeReadPlanOf(mint, user, null);
    warm.set(mint, await warmBuy(plan));
    const venues = { lookupBuy: (p: TradeReadPlan) => warm.get(p.addressTexts[0]!) ?? null };
    // A mint the warm state does not hold is skipped (no read).
    expect(warmFirstBuys([mint, key()], [{ publicKey: user, isDefault: true }], venues)).toBe(1);
    const misses = memo.misses;
    const built = buildCurveBuyExactQuoteInV3({
      global,
      mint: plan.mint,
      user: plan.user,
      tokenProgram: TOKEN_PROGRAM_ID,
      spendable: 10_000_000n,
      minTokensOut: 1n,
      createAta: true,
    });
    expect(built).toHaveLength(2);
    expect(memo.misses).toBe(misses);
  });
});
