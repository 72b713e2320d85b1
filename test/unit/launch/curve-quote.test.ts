import type { BondingCurve, FeeConfig, Global } from "@pump-fun/pump-sdk";
import { PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  advanceCurveAfterBuy,
  buyExactSolInTokensOut,
  buyTokensCost,
  buyTokensEstimate,
  calculateFeeTier,
  computeCurveFeesBps,
  curveBuyCost,
  ONE_BILLION_SUPPLY,
  sellSolOut,
  type CurveFeeInputs,
  type CurveFeesBps,
  type CurveState,
  type FeeTier,
} from "../../../src/launch/curve-quote.js";
import { launchSdk } from "../../../src/launch/sdk.js";

const CREATOR = new PublicKey("62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV");
const bn = (x: bigint): BN => new BN(x.toString());

// Mainnet Global values (reference B.1.2) with the live fee rates.
const GLOBAL_PROTOCOL_BPS = 95n;
const GLOBAL_CREATOR_BPS = 5n;
const FRESH: CurveState = {
  virtualTokenReserves: 1_073_000_000_000_000n,
  virtualQuoteReserves: 30_000_000_000n,
  realTokenReserves: 793_100_000_000_000n,
  realQuoteReserves: 0n,
};

/** The SDK's Global with only the fields its quote functions read (the rest is never touched). */
function sdkGlobal(creatorFeeConfigurable = false): Global {
  const partial = {
    initialVirtualTokenReserves: bn(FRESH.virtualTokenReserves),
    initialVirtualSolReserves: bn(FRESH.virtualQuoteReserves),
    initialRealTokenReserves: bn(FRESH.realTokenReserves),
    tokenTotalSupply: bn(ONE_BILLION_SUPPLY),
    feeBasisPoints: bn(GLOBAL_PROTOCOL_BPS),
    creatorFeeBasisPoints: bn(GLOBAL_CREATOR_BPS),
    mayhemModeEnabled: false,
    whitelistedQuoteMints: [PublicKey.default],
    initialVirtualQuoteReserves: new BN(0),
    creatorFeeConfigurable,
  };
  return partial as unknown as Global; // test double: the quote functions read only these fields
}

function sdkFeeConfig(tiers: readonly FeeTier[]): FeeConfig {
  const fees = (l: bigint, p: bigint, c: bigint) => ({
    lpFeeBps: bn(l),
    protocolFeeBps: bn(p),
    creatorFeeBps: bn(c),
  });
  return {
    admin: PublicKey.default,
    flatFees: fees(25n, 5n, 0n),
    feeTiers: tiers.map((t) => ({
      marketCapLamportsThreshold: bn(t.marketCapThreshold),
      fees: fees(t.fees.lpFeeBps, t.fees.protocolFeeBps, t.fees.creatorFeeBps),
    })),
    stableFeeTiers: [],
    exoticFlatFees: fees(0n, 0n, 0n),
  };
}

function sdkCurve(
  curve: CurveState,
  opts: { creator: boolean; mayhem: boolean; creatorFeeBps?: bigint },
): BondingCurve {
  return {
    virtualTokenReserves: bn(curve.virtualTokenReserves),
    virtualQuoteReserves: bn(curve.virtualQuoteReserves),
    realTokenReserves: bn(curve.realTokenReserves),
    realQuoteReserves: bn(curve.realQuoteReserves),
    tokenTotalSupply: bn(ONE_BILLION_SUPPLY),
    complete: false,
    creator: opts.creator ? CREATOR : PublicKey.default,
    isMayhemMode: opts.mayhem,
    isCashbackCoin: false,
    quoteMint: PublicKey.default,
    creatorFeeBps: bn(opts.creatorFeeBps ?? 0n),
    canEditCreatorFee: false,
    isHolderReward: false,
  };
}

const tier = (threshold: bigint, protocol: bigint, creator: bigint): FeeTier => ({
  marketCapThreshold: threshold,
  fees: { lpFeeBps: 0n, protocolFeeBps: protocol, creatorFeeBps: creator },
});
const TIERS: readonly FeeTier[] = [
  tier(0n, 95n, 30n),
  tier(420_000_000_000n, 5n, 95n),
  tier(1_470_000_000_000n, 5n, 90n),
  tier(2_460_000_000_000n, 5n, 85n),
];

/** A random SOL curve in the range real curves live in (vT > realTokenReserves > 0). */
const curveArb = fc
  .record({
    virtualTokenReserves: fc.bigInt({ min: 280_000_000_000_000n, max: 1_073_000_000_000_000n }),
    virtualQuoteReserves: fc.bigInt({ min: 1_000_000_000n, max: 120_000_000_000n }),
    realQuoteReserves: fc.bigInt({ min: 0n, max: 90_000_000_000n }),
  })
  .map((c): CurveState => ({ ...c, realTokenReserves: c.virtualTokenReserves - 279_900_000_000_000n }));

interface Scenario {
  curve: CurveState;
  creator: boolean;
  mayhem: boolean;
  mintSupply: bigint;
  withFeeConfig: boolean;
  configurable: boolean;
  curveCreatorFeeBps: bigint;
}
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  curve: curveArb,
  creator: fc.boolean(),
  mayhem: fc.boolean(),
  mintSupply: fc.bigInt({ min: 900_000_000_000_000n, max: 2_000_000_000_000_000n }),
  withFeeConfig: fc.boolean(),
  configurable: fc.boolean(),
  curveCreatorFeeBps: fc.constantFrom(0n, 0n, 50n, 300n),
});

function feesFor(s: Scenario): CurveFeesBps {
  const inputs: CurveFeeInputs = {
    feeTiers: s.withFeeConfig ? TIERS : null,
    globalProtocolFeeBps: GLOBAL_PROTOCOL_BPS,
    globalCreatorFeeBps: GLOBAL_CREATOR_BPS,
    creatorFeeConfigurable: s.configurable,
    curveCreatorFeeBps: s.curveCreatorFeeBps,
    mintSupply: s.mintSupply,
    virtualQuoteReserves: s.curve.virtualQuoteReserves,
    virtualTokenReserves: s.curve.virtualTokenReserves,
    hasCreator: s.creator,
    isMayhemMode: s.mayhem,
  };
  return computeCurveFeesBps(inputs);
}

function sdkArgs(s: Scenario) {
  return {
    global: sdkGlobal(s.configurable),
    feeConfig: s.withFeeConfig ? sdkFeeConfig(TIERS) : null,
    // What pump-sdk's getFee does itself; passed explicitly so getBuyTokenAmountFromSolAmount agrees.
    mintSupply: bn(s.mayhem ? s.mintSupply : ONE_BILLION_SUPPLY),
    bondingCurve: sdkCurve(s.curve, {
      creator: s.creator,
      mayhem: s.mayhem,
      creatorFeeBps: s.curveCreatorFeeBps,
    }),
    quoteMint: PublicKey.default,
  };
}

describe("curve fee selection", () => {
  it("matches pump-sdk computeFeesBps (creator part only when a creator exists)", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const args = sdkArgs(s);
        const sdk = launchSdk.computeFeesBps({
          global: args.global,
          feeConfig: args.feeConfig,
          mintSupply: args.mintSupply,
          virtualQuoteReserves: args.bondingCurve.virtualQuoteReserves,
          virtualTokenReserves: args.bondingCurve.virtualTokenReserves,
          quoteMint: PublicKey.default,
          creatorFeeBps: args.bondingCurve.creatorFeeBps,
        });
        const ours = feesFor(s);
        expect(ours.protocolFeeBps.toString()).toBe(sdk.protocolFeeBps.toString());
        expect(ours.creatorFeeBps.toString()).toBe(s.creator ? sdk.creatorFeeBps.toString() : "0");
      }),
      { numRuns: 300 },
    );
  });

  it("picks tier 0 below its threshold and the last tier reached otherwise", () => {
    const tiers = [tier(100n, 1n, 1n), tier(200n, 2n, 2n), tier(300n, 3n, 3n)];
    expect(calculateFeeTier(tiers, 0n).protocolFeeBps).toBe(1n);
    expect(calculateFeeTier(tiers, 199n).protocolFeeBps).toBe(1n);
    expect(calculateFeeTier(tiers, 200n).protocolFeeBps).toBe(2n);
    expect(calculateFeeTier(tiers, 10n ** 20n).protocolFeeBps).toBe(3n);
    expect(() => calculateFeeTier([], 1n)).toThrow();
  });

  it("the fresh curve's market cap (27.96 SOL) falls in tier 0", () => {
    const fees = computeCurveFeesBps({
      feeTiers: TIERS,
      globalProtocolFeeBps: 95n,
      globalCreatorFeeBps: 5n,
      mintSupply: ONE_BILLION_SUPPLY,
      virtualQuoteReserves: FRESH.virtualQuoteReserves,
      virtualTokenReserves: FRESH.virtualTokenReserves,
      hasCreator: true,
      isMayhemMode: false,
    });
    expect(fees).toEqual({ protocolFeeBps: 95n, creatorFeeBps: 30n });
  });
});

describe("curve quotes against pump-sdk", () => {
  it("buyTokensCost = getBuySolAmountFromTokenAmount", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 1n, max: 10n ** 15n }), (s, amount) => {
        const sdk = launchSdk.getBuySolAmountFromTokenAmount({ ...sdkArgs(s), amount: bn(amount) });
        expect(buyTokensCost(amount, s.curve, feesFor(s)).toString()).toBe(sdk.toString());
      }),
      { numRuns: 500 },
    );
  });

  it("sellSolOut = getSellSolAmountFromTokenAmount", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 1n, max: 10n ** 15n }), (s, amount) => {
        const sdk = launchSdk.getSellSolAmountFromTokenAmount({ ...sdkArgs(s), amount: bn(amount) });
        expect(sellSolOut(amount, s.curve, feesFor(s)).toString()).toBe(sdk.toString());
      }),
      { numRuns: 500 },
    );
  });

  it("buyTokensEstimate = getBuyTokenAmountFromSolAmount", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 1n, max: 100_000_000_000n }), (s, lamports) => {
        const sdk = launchSdk.getBuyTokenAmountFromSolAmount({ ...sdkArgs(s), amount: bn(lamports) });
        expect(buyTokensEstimate(lamports, s.curve, feesFor(s)).toString()).toBe(sdk.toString());
      }),
      { numRuns: 500 },
    );
  });

  it("returns 0 for a zero amount or a migrated curve, like the SDK", () => {
    const fees = { protocolFeeBps: 95n, creatorFeeBps: 5n };
    const migrated = { ...FRESH, virtualTokenReserves: 0n };
    expect(buyTokensCost(0n, FRESH, fees)).toBe(0n);
    expect(buyTokensCost(5n, migrated, fees)).toBe(0n);
    expect(sellSolOut(0n, FRESH, fees)).toBe(0n);
    expect(sellSolOut(5n, migrated, fees)).toBe(0n);
    expect(buyExactSolInTokensOut(1_000n, migrated, fees).tokensOut).toBe(0n);
  });
});

describe("buy_exact_sol_in (on-chain formula, reference B.1.3)", () => {
  it("worked example: Global 95/5 bps, 1 SOL on a fresh curve", () => {
    expect(buyExactSolInTokensOut(1_000_000_000n, FRESH, { protocolFeeBps: 95n, creatorFeeBps: 5n })).toEqual(
      {
        tokensOut: 34_281_150_096_027n,
        netSol: 990_099_009n,
        fees: 9_900_991n,
      },
    );
  });

  it("worked example: tier 95/30 bps, 1 SOL on a fresh curve (SDK says 34 199 203 154 141)", () => {
    const fees = { protocolFeeBps: 95n, creatorFeeBps: 30n };
    expect(buyExactSolInTokensOut(1_000_000_000n, FRESH, fees)).toEqual({
      tokensOut: 34_199_203_120_618n,
      netSol: 987_654_320n,
      fees: 12_345_680n,
    });
    expect(buyTokensEstimate(1_000_000_000n, FRESH, fees)).toBe(34_199_203_154_141n);
  });

  it("never exceeds the SDK estimate, never overspends, and its tokens cost at most netSol", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 2n, max: 100_000_000_000n }), (s, lamports) => {
        const fees = feesFor(s);
        const q = buyExactSolInTokensOut(lamports, s.curve, fees);
        const sdk = launchSdk.getBuyTokenAmountFromSolAmount({ ...sdkArgs(s), amount: bn(lamports) });
        const capped = q.tokensOut < s.curve.realTokenReserves ? q.tokensOut : s.curve.realTokenReserves;
        expect(capped <= BigInt(sdk.toString())).toBe(true);
        expect(q.netSol + q.fees <= lamports).toBe(true);
        if (q.tokensOut > 0n) expect(curveBuyCost(q.tokensOut, s.curve) <= q.netSol).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("advanceCurveAfterBuy", () => {
  it("moves tokens out and lamports in, keeping other fields", () => {
    const curve = { ...FRESH, complete: false };
    const next = advanceCurveAfterBuy(curve, 1_000n, 30n);
    expect(next).toEqual({
      virtualTokenReserves: FRESH.virtualTokenReserves - 1_000n,
      realTokenReserves: FRESH.realTokenReserves - 1_000n,
      virtualQuoteReserves: FRESH.virtualQuoteReserves + 30n,
      realQuoteReserves: 30n,
      complete: false,
    });
    expect(curve.virtualTokenReserves).toBe(FRESH.virtualTokenReserves);
  });

  it("later buyers of the same SOL get fewer tokens (bundle quoting)", () => {
    const fees = { protocolFeeBps: 95n, creatorFeeBps: 30n };
    let curve = FRESH;
    let previous = 2n ** 64n;
    for (let i = 0; i < 4; i += 1) {
      const q = buyExactSolInTokensOut(1_000_000_000n, curve, fees);
      expect(q.tokensOut < previous).toBe(true);
      previous = q.tokensOut;
      curve = advanceCurveAfterBuy(curve, q.tokensOut, q.netSol);
    }
  });
});
