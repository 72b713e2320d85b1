/**
 * From decoded launch state to the inputs of the domain's pure quote math (curve-quote, swap-quote).
 * The mapping needs launch knowledge the domain does not have (zero-key creators, the canonical pool's
 * authority PDA, which supply is the market-cap basis), so it lives here; the math stays in the domain.
 */
import { PublicKey } from "@solana/web3.js";
import type { CurveFeeInputs, CurveState, FeeTier } from "./curve-quote.js";
import type { SwapFeeInputs, SwapReserves } from "./swap-quote.js";
import { poolAuthorityAddress } from "./programs.js";
import type {
  BondingCurveState,
  LaunchFeeConfig,
  LaunchGlobal,
  SwapFeeConfig,
  SwapGlobalConfig,
} from "./state.js";
import type { SwapTradeRead } from "./trade-accounts.js";

type DecodedTier = LaunchFeeConfig["feeTiers"][number];

function tiers(list: readonly DecodedTier[]): FeeTier[] {
  return list.map((t) => ({ marketCapThreshold: t.marketCapLamportsThreshold, fees: t.fees }));
}

/** Fee inputs of a trade on an existing curve (`mintSupply` from the mint account). */
export function curveFeeInputs(args: {
  global: LaunchGlobal;
  feeConfig: LaunchFeeConfig | null;
  curve: BondingCurveState;
  mintSupply: bigint;
}): CurveFeeInputs {
  const { global, feeConfig, curve } = args;
  return {
    feeTiers: feeConfig === null ? null : tiers(feeConfig.feeTiers),
    globalProtocolFeeBps: global.feeBasisPoints,
    globalCreatorFeeBps: global.creatorFeeBasisPoints,
    creatorFeeConfigurable: global.creatorFeeConfigurable,
    curveCreatorFeeBps: curve.creatorFeeBps,
    mintSupply: args.mintSupply,
    virtualQuoteReserves: curve.virtualQuoteReserves,
    virtualTokenReserves: curve.virtualTokenReserves,
    hasCreator: !curve.creator.equals(PublicKey.default),
    isMayhemMode: curve.isMayhemMode,
  };
}

/** The curve create_v2 makes, as Global's initial values define it (SOL quote). */
export function freshCurve(global: LaunchGlobal): CurveState {
  return {
    virtualTokenReserves: global.initialVirtualTokenReserves,
    virtualQuoteReserves: global.initialVirtualSolReserves,
    realTokenReserves: global.initialRealTokenReserves,
    realQuoteReserves: 0n,
  };
}

/** Fee inputs of the first buy(s) against a curve being created in the same transaction or bundle. */
export function freshCurveFeeInputs(args: {
  global: LaunchGlobal;
  feeConfig: LaunchFeeConfig | null;
  mayhem: boolean;
  curve?: CurveState;
}): CurveFeeInputs {
  const { global, feeConfig } = args;
  const curve = args.curve ?? freshCurve(global);
  return {
    feeTiers: feeConfig === null ? null : tiers(feeConfig.feeTiers),
    globalProtocolFeeBps: global.feeBasisPoints,
    globalCreatorFeeBps: global.creatorFeeBasisPoints,
    creatorFeeConfigurable: global.creatorFeeConfigurable,
    curveCreatorFeeBps: 0n,
    // A new coin's supply is Global's token_total_supply (mayhem coins' market cap uses it).
    mintSupply: global.tokenTotalSupply,
    virtualQuoteReserves: curve.virtualQuoteReserves,
    virtualTokenReserves: curve.virtualTokenReserves,
    // The creator is the create argument: never the zero key.
    hasCreator: true,
    isMayhemMode: args.mayhem,
  };
}

/** Reserves of a pool trade: vault balances and the pool's signed virtual quote reserves. */
export function swapReserves(read: SwapTradeRead): SwapReserves {
  return {
    baseReserve: read.poolReserves.base,
    quoteReserve: read.poolReserves.quote,
    virtualQuoteReserves: read.pool.virtualQuoteReserves,
  };
}

/** Fee inputs of a pool trade, from the read and the cached GlobalConfig / FeeConfig. */
export function swapFeeInputs(args: {
  globalConfig: SwapGlobalConfig;
  feeConfig: SwapFeeConfig | null;
  read: SwapTradeRead;
}): SwapFeeInputs {
  const { globalConfig: gc, feeConfig, read } = args;
  return {
    feeConfig:
      feeConfig === null ? null : { feeTiers: tiers(feeConfig.feeTiers), flatFees: feeConfig.flatFees },
    globalFees: {
      lpFeeBps: gc.lpFeeBasisPoints,
      protocolFeeBps: gc.protocolFeeBasisPoints,
      creatorFeeBps: gc.coinCreatorFeeBasisPoints,
    },
    creatorFeeConfigurable: gc.creatorFeeConfigurable,
    poolCreatorFeeBps: read.pool.creatorFeeBps,
    // Canonical pools are created by migration with the pool-authority PDA as creator.
    isCanonicalPool: read.pool.creator.equals(poolAuthorityAddress(read.pool.baseMint)),
    baseMintSupply: read.mintSupply,
    reserves: swapReserves(read),
    isMayhemMode: read.pool.isMayhemMode,
    hasCoinCreator: !read.pool.coinCreator.equals(PublicKey.default),
  };
}
