/**
 * The swap SDK's `SwapSolanaState`, assembled from our single trade read plus the cached GlobalConfig
 * and FeeConfig, so the SDK's builders and quotes run without any online fetch of their own.
 */
import { PublicKey, type AccountInfo } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "./spl-token.js";
import { launchSwapSdk } from "./sdk.js";
import { toSdk, type SwapFeeConfig, type SwapGlobalConfig } from "./state.js";
import type { SwapTradeRead } from "./trade-accounts.js";

/** The SDK's swap state (what `PUMP_AMM_SDK.buyInstructions` / `sellInstructions` take). */
export type SwapState = Parameters<typeof launchSwapSdk.PUMP_AMM_SDK.buyInstructions>[0];

// The SDK inspects these infos only for existence, owner and (pool) data length.
function stubInfo(owner: PublicKey, dataLength: number): AccountInfo<Buffer> {
  return { data: Buffer.alloc(dataLength), executable: false, lamports: 0, owner };
}

// The configs are the chain caches' decoded objects, the same instance until the account changes: convert
// each once (a FeeConfig's tiers make this the larger part of building a swap trade's state).
const sdkConfigs = new WeakMap<object, unknown>();
function sdkConfig<T extends object>(config: T): ReturnType<typeof toSdk<T>> {
  let converted = sdkConfigs.get(config) as ReturnType<typeof toSdk<T>> | undefined;
  if (converted === undefined) {
    converted = toSdk(config);
    sdkConfigs.set(config, converted);
  }
  return converted;
}

/** Builds the SDK swap state for `read` (a launchswap-routed trade) from cached configs. */
export function buildSwapState(
  read: SwapTradeRead,
  globalConfig: SwapGlobalConfig,
  feeConfig: SwapFeeConfig | null,
): SwapState {
  return {
    globalConfig: sdkConfig(globalConfig),
    feeConfig: feeConfig === null ? null : sdkConfig(feeConfig),
    poolKey: read.poolAddress,
    poolAccountInfo: stubInfo(launchSwapSdk.PUMP_AMM_PROGRAM_ID, read.poolDataLength),
    pool: toSdk(read.pool),
    poolBaseAmount: toSdk(read.poolReserves.base),
    poolQuoteAmount: toSdk(read.poolReserves.quote),
    baseTokenProgram: read.tokenProgram,
    quoteTokenProgram: TOKEN_PROGRAM_ID,
    baseMint: read.mint,
    baseMintAccount: {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: read.mintSupply,
      decimals: read.decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    user: read.user,
    userBaseTokenAccount: read.userTokenAccount,
    userQuoteTokenAccount: read.userWsolAccount,
    userBaseAccountInfo: read.userAtaExists ? stubInfo(read.tokenProgram, 0) : null,
    userQuoteAccountInfo: read.userWsolExists ? stubInfo(TOKEN_PROGRAM_ID, 0) : null,
  };
}
