import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { computeCurveFeesBps } from "../../../src/launch/curve-quote.js";
import { computeSwapFeesBps } from "../../../src/launch/swap-quote.js";
import { launchSdk, launchSwapSdk } from "../../../src/launch/sdk.js";
import { poolAuthorityAddress } from "../../../src/launch/programs.js";
import {
  curveFeeInputs,
  freshCurve,
  freshCurveFeeInputs,
  swapFeeInputs,
} from "../../../src/launch/quote-inputs.js";
import {
  toSdk,
  type BondingCurveState,
  type LaunchFeeConfig,
  type LaunchGlobal,
  type PoolState,
  type SwapGlobalConfig,
} from "../../../src/launch/state.js";
import type { SwapTradeRead } from "../../../src/launch/trade-accounts.js";
import { key } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const mint = key(3);

const fees = (lp: bigint, protocol: bigint, creator: bigint) => ({
  lpFeeBps: lp,
  protocolFeeBps: protocol,
  creatorFeeBps: creator,
});
const feeConfig: LaunchFeeConfig = {
  admin: key(9),
  flatFees: fees(25n, 5n, 0n),
  feeTiers: [
    { marketCapLamportsThreshold: 0n, fees: fees(2n, 93n, 30n) },
    { marketCapLamportsThreshold: 420_000_000_000n, fees: fees(20n, 5n, 95n) },
    { marketCapLamportsThreshold: 1_470_000_000_000n, fees: fees(20n, 5n, 90n) },
  ],
  stableFeeTiers: [],
  exoticFlatFees: fees(0n, 0n, 0n),
};
// Only the fields fee selection reads are meaningful here.
const global = {
  feeBasisPoints: 95n,
  creatorFeeBasisPoints: 5n,
  creatorFeeConfigurable: false,
  initialVirtualTokenReserves: 1_073_000_000_000_000n,
  initialVirtualSolReserves: 30_000_000_000n,
  initialRealTokenReserves: 793_100_000_000_000n,
  tokenTotalSupply: 1_000_000_000_000_000n,
} as LaunchGlobal;

function curve(vQ: bigint, vT: bigint, mayhem: boolean, creator: PublicKey = key(2)): BondingCurveState {
  return {
    virtualTokenReserves: vT,
    virtualQuoteReserves: vQ,
    realTokenReserves: vT - 279_900_000_000_000n,
    realQuoteReserves: vQ - 30_000_000_000n,
    tokenTotalSupply: 1_000_000_000_000_000n,
    complete: false,
    creator,
    isMayhemMode: mayhem,
    isCashbackCoin: false,
    quoteMint: Z,
    creatorFeeBps: 0n,
    canEditCreatorFee: false,
    isHolderReward: false,
  };
}

describe("curve quote inputs", () => {
  it("select the same fee rates as the SDK for any reserves and supply", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 30_000_000_000n, max: 200_000_000_000n }),
        fc.bigInt({ min: 300_000_000_000_000n, max: 1_073_000_000_000_000n }),
        fc.bigInt({ min: 1n, max: 2_000_000_000_000_000n }),
        fc.boolean(),
        (vQ, vT, supply, mayhem) => {
          const c = curve(vQ, vT, mayhem);
          const ours = computeCurveFeesBps(
            curveFeeInputs({ global, feeConfig, curve: c, mintSupply: supply }),
          );
          const sdk = launchSdk.computeFeesBps({
            global: toSdk(global) as never, // the SDK reads only the fields set above
            feeConfig: toSdk(feeConfig),
            // getFee's convention: live supply for mayhem coins, 1e15 otherwise.
            mintSupply: toSdk(mayhem ? supply : 1_000_000_000_000_000n),
            virtualQuoteReserves: toSdk(vQ),
            virtualTokenReserves: toSdk(vT),
          });
          expect(ours.protocolFeeBps).toBe(BigInt(sdk.protocolFeeBps.toString()));
          expect(ours.creatorFeeBps).toBe(BigInt(sdk.creatorFeeBps.toString()));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("charge no creator fee on a curve without creator", () => {
    const ours = computeCurveFeesBps(
      curveFeeInputs({
        global,
        feeConfig,
        curve: curve(40_000_000_000n, 900_000_000_000_000n, false, Z),
        mintSupply: 1n,
      }),
    );
    expect(ours.creatorFeeBps).toBe(0n);
    expect(ours.protocolFeeBps).toBe(93n);
  });

  it("quote a fresh curve from Global's initial values, with its creator", () => {
    expect(freshCurve(global)).toEqual({
      virtualTokenReserves: 1_073_000_000_000_000n,
      virtualQuoteReserves: 30_000_000_000n,
      realTokenReserves: 793_100_000_000_000n,
      realQuoteReserves: 0n,
    });
    const inputs = freshCurveFeeInputs({ global, feeConfig, mayhem: false });
    expect(inputs.hasCreator).toBe(true);
    expect(computeCurveFeesBps(inputs)).toEqual({ protocolFeeBps: 93n, creatorFeeBps: 30n });
    expect(computeCurveFeesBps(freshCurveFeeInputs({ global, feeConfig: null, mayhem: true }))).toEqual({
      protocolFeeBps: 95n,
      creatorFeeBps: 5n,
    });
  });
});

describe("swap quote inputs", () => {
  const globalConfig = {
    lpFeeBasisPoints: 20n,
    protocolFeeBasisPoints: 5n,
    coinCreatorFeeBasisPoints: 5n,
    creatorFeeConfigurable: false,
    protocolFeeRecipients: [],
    reservedFeeRecipients: [],
    buybackFeeRecipients: [],
  } as unknown as SwapGlobalConfig; // fee selection reads only the rates

  function read(
    canonical: boolean,
    mayhem: boolean,
    base: bigint,
    quote: bigint,
    supply: bigint,
  ): SwapTradeRead {
    const pool: PoolState = {
      poolBump: 255,
      index: 0,
      creator: canonical ? poolAuthorityAddress(mint) : key(44),
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      lpMint: key(21),
      poolBaseTokenAccount: key(22),
      poolQuoteTokenAccount: key(23),
      lpSupply: 1n,
      coinCreator: key(2),
      isMayhemMode: mayhem,
      isCashbackCoin: false,
      virtualQuoteReserves: 0n,
      creatorFeeBps: 0n,
      canEditCreatorFee: false,
    };
    return {
      venue: "launchswap",
      mint,
      user: key(1),
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mintSupply: supply,
      decimals: 6,
      userTokenAccount: key(30),
      userAtaExists: false,
      userTokenBalance: 0n,
      userWsolAccount: key(31),
      userWsolExists: false,
      poolAddress: key(32),
      pool,
      poolDataLength: 300,
      poolReserves: { base, quote },
      curve: null,
    };
  }

  it("select the same fee rates as the swap SDK (tiers for canonical pools, flat otherwise)", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.bigInt({ min: 1_000_000n, max: 1_000_000_000_000_000n }),
        fc.bigInt({ min: 1n, max: 10_000_000_000_000n }),
        fc.bigInt({ min: 1_000_000n, max: 1_000_000_000_000_000n }),
        (canonical, mayhem, base, quote, supply) => {
          const r = read(canonical, mayhem, base, quote, supply);
          const ours = computeSwapFeesBps(swapFeeInputs({ globalConfig, feeConfig, read: r }));
          const sdk = launchSwapSdk.computeFeesBps({
            globalConfig: toSdk(globalConfig),
            feeConfig: toSdk(feeConfig),
            creator: r.pool.creator,
            baseMintSupply: toSdk(supply),
            baseMint: mint,
            baseReserve: toSdk(base),
            quoteReserve: toSdk(quote),
            quoteMint: NATIVE_MINT,
            isMayhemMode: mayhem,
          });
          expect(ours.lpFeeBps).toBe(BigInt(sdk.lpFeeBps.toString()));
          expect(ours.protocolFeeBps).toBe(BigInt(sdk.protocolFeeBps.toString()));
          expect(ours.creatorFeeBps).toBe(BigInt(sdk.creatorFeeBps.toString()));
        },
      ),
      { numRuns: 200 },
    );
  });
});
