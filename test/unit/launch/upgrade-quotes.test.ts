/**
 * The quote side of the October 2026 upgrade: curve accounts of every size decode, pool quotes keep the
 * sign of virtual_quote_reserves, and the synthetic-migration quote of a buy that crosses completion.
 */
import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import { decodeBondingCurve } from "../../../src/launch/state.js";
import { decodeCurveTail } from "../../../src/launch/curve-tail.js";
import { CURVE_ACCOUNT_SIZES } from "../../../src/launch/generation.js";
import {
  computeSwapFeesBps,
  swapBuyBaseInput,
  swapBuyQuoteInput,
  swapSellBaseInput,
} from "../../../src/launch/swap-quote.js";
import { buyExactSolInTokensOut, curveBuyCost } from "../../../src/launch/curve-quote.js";
import {
  buyExactQuoteInV3Quote,
  buyV3Cost,
  impliedCurveBaseBalance,
  syntheticPoolReserves,
} from "../../../src/launch/synthetic-quote.js";
import { key } from "../../helpers/fixtures.js";

describe("curve accounts of every size (125, 151, 166, 256 bytes)", () => {
  const curve = {
    virtualTokenReserves: new BN("1073000000000000"),
    virtualQuoteReserves: new BN("30000000000"),
    realTokenReserves: new BN("793100000000000"),
    realQuoteReserves: new BN(0),
    tokenTotalSupply: new BN("1000000000000000"),
    complete: false,
    creator: key(2),
    isMayhemMode: false,
    isCashbackCoin: false,
    quoteMint: PublicKey.default,
    creatorFeeBps: new BN(0),
    canEditCreatorFee: false,
    isHolderReward: false,
  };
  // The recorded layout's appended fields at their offsets: creator_fee 125, protocol_fees 133, depth 141,
  // initial_virtual_quote_reserves 142, post_complete_base_out 150, post_complete_quote_in 158.
  async function account(size: number): Promise<Buffer> {
    const head = await launchProgram.coder.accounts.encode("bondingCurve", curve);
    const bytes = Buffer.alloc(size);
    head.copy(bytes, 0, 0, Math.min(head.length, size));
    const put = (offset: number, v: bigint) => offset + 8 <= size && bytes.writeBigUInt64LE(v, offset);
    put(125, 11n);
    put(133, 22n);
    if (size > 141) bytes[141] = 1;
    put(142, 33n);
    put(150, 44n);
    put(158, 55n);
    return bytes;
  }

  it.each(CURVE_ACCOUNT_SIZES)("%i bytes: the SDK's fields and the appended ones decode", async (size) => {
    const data = await account(size);
    const decoded = decodeBondingCurve(data);
    expect(decoded.realTokenReserves).toBe(793_100_000_000_000n);
    expect(decoded.creator.equals(key(2))).toBe(true);
    const tail = decodeCurveTail(data);
    expect(tail.creatorFee).toBe(size >= 133 ? 11n : 0n);
    expect(tail.protocolFees).toBe(size >= 141 ? 22n : 0n);
    expect(tail.postCompleteBaseOut).toBe(size >= 158 ? 44n : 0n);
    expect(tail.postCompleteQuoteIn).toBe(size >= 166 ? 55n : 0n);
  });

  it("a 125-byte curve reads every appended field as 0", async () => {
    expect(decodeCurveTail(await account(125))).toEqual({
      creatorFee: 0n,
      protocolFees: 0n,
      depth: 0,
      initialVirtualQuoteReserves: 0n,
      postCompleteBaseOut: 0n,
      postCompleteQuoteIn: 0n,
    });
  });
});

describe("signed virtual quote reserves in every pool quote", () => {
  const noFees = { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n };
  // Vault 2,000,000 with -500,000 virtual: the pool prices on 1,500,000.
  const negative = { baseReserve: 1_000_000n, quoteReserve: 2_000_000n, virtualQuoteReserves: -500_000n };

  it("buy of exact base prices on vault + virtual (ceil(1.5e6 × 1000 / 999000) = 1502, not 2002)", () => {
    expect(swapBuyBaseInput(1_000n, negative, noFees).internalQuoteAmount).toBe(1_502n);
  });
  it("sell prices on vault + virtual (floor(1.5e6 × 1000 / 1001000) = 1498)", () => {
    expect(swapSellBaseInput(1_000n, negative, noFees).internalQuoteAmountOut).toBe(1_498n);
  });
  it("buy with exact quote prices on vault + virtual (floor(1e6 × 9999 / 1509999) = 6621)", () => {
    expect(swapBuyQuoteInput(10_000n, negative, noFees).base).toBe(6_621n);
  });
  it("the fee tier's market cap uses the signed effective reserves", () => {
    const tiers = [
      { marketCapThreshold: 0n, fees: { lpFeeBps: 1n, protocolFeeBps: 1n, creatorFeeBps: 1n } },
      { marketCapThreshold: 1_600_000_000n, fees: { lpFeeBps: 9n, protocolFeeBps: 9n, creatorFeeBps: 9n } },
    ];
    const input = {
      feeConfig: { feeTiers: tiers, flatFees: noFees },
      globalFees: noFees,
      isCanonicalPool: true,
      baseMintSupply: 1_000_000_000n,
      isMayhemMode: false,
      hasCoinCreator: true,
    };
    // Market cap 1.5e6 × 1e9 / 1e6 = 1.5e9: below the second tier (2.0e9 if the sign were dropped).
    expect(computeSwapFeesBps({ ...input, reserves: negative }).lpFeeBps).toBe(1n);
    expect(
      computeSwapFeesBps({ ...input, reserves: { ...negative, virtualQuoteReserves: 0n } }).lpFeeBps,
    ).toBe(9n);
  });
});

describe("the synthetic-migration quote (SYNTHETIC_MIGRATION.md)", () => {
  // A mainnet-shaped curve with 1,000 tokens (1e9 units) left: k = 1.073e15 × 3e10.
  const curve = {
    virtualTokenReserves: 279_901_000_000_000n,
    virtualQuoteReserves: 115_004_948_178n,
    realTokenReserves: 1_000_000_000n,
    realQuoteReserves: 85_004_948_178n,
    tokenTotalSupply: 1_000_000_000_000_000n,
  };
  const fees = { protocolFeeBps: 95n, creatorFeeBps: 30n };
  const inputs = {
    curveBaseBalance: impliedCurveBaseBalance(curve, 793_100_000_000_000n),
    poolMigrationFee: 15_000_001n,
  };

  it("the would-be pool: the curve's tokens less what is left, the raised quote less the migration fee", () => {
    expect(inputs.curveBaseBalance).toBe(206_901_000_000_000n);
    const r = syntheticPoolReserves(curve, inputs);
    const curveQuote = curveBuyCost(1_000_000_000n, curve);
    expect(r).toEqual({
      base: 206_900_000_000_000n,
      quote: 85_004_948_178n + curveQuote - 15_000_001n,
      curveQuote,
    });
  });

  it("a budget past the curve buys what is left plus floor((in-1) × base / (quote + in - 1)) from the pool", () => {
    const q = buyExactQuoteInV3Quote(1_000_000_000n, curve, fees, inputs);
    const r = syntheticPoolReserves(curve, inputs);
    const curveCost =
      r.curveQuote + (r.curveQuote * 95n + 9_999n) / 10_000n + (r.curveQuote * 30n + 9_999n) / 10_000n;
    const left = 1_000_000_000n - curveCost;
    let net = (left * 10_000n) / 10_125n;
    const feesOn = (n: bigint) => (n * 95n + 9_999n) / 10_000n + (n * 30n + 9_999n) / 10_000n;
    if (net + feesOn(net) > left) net -= net + feesOn(net) - left;
    const pool = ((net - 1n) * r.base) / (r.quote + net - 1n);
    expect(q).toEqual({
      curveTokens: 1_000_000_000n,
      poolTokens: pool,
      curveQuote: r.curveQuote,
      poolQuote: net,
      tokensOut: 1_000_000_000n + pool,
      totalCost: 1_000_000_000n,
      completes: true,
    });
    expect(pool).toBeGreaterThan(0n);
  });

  it("a budget within the curve is the plain buy_exact_sol_in quote", () => {
    const q = buyExactQuoteInV3Quote(1_000n, curve, fees, inputs);
    expect(q.poolTokens).toBe(0n);
    expect(q.completes).toBe(false);
    expect(q.tokensOut).toBe(buyExactSolInTokensOut(1_000n, curve, fees).tokensOut);
  });

  it("buy_v3 past the curve costs the curve part plus ceil(quote × extra / (base - extra)), fees on each", () => {
    const r = syntheticPoolReserves(curve, inputs);
    const extra = 5_000_000_000n;
    const poolQuote = (r.quote * extra + (r.base - extra) - 1n) / (r.base - extra);
    const withFees = (n: bigint) => n + (n * 95n + 9_999n) / 10_000n + (n * 30n + 9_999n) / 10_000n;
    expect(buyV3Cost(1_000_000_000n + extra, curve, fees, inputs)).toBe(
      withFees(r.curveQuote) + withFees(poolQuote),
    );
    // The pool part can never take all of the pool's tokens.
    expect(buyV3Cost(1_000_000_000n + r.base, curve, fees, inputs)).toBeNull();
  });
});
