/**
 * The launch programs' configuration accounts (launch Global and FeeConfig, swap GlobalConfig and FeeConfig)
 * decoded from the chain caches, never read on the request path. Each cached account version is decoded
 * once: the caches swap in new objects on refresh, which invalidates the memo by identity.
 */
import type { PublicKey } from "@solana/web3.js";
import type { ChainCaches } from "../../chain/caches.js";
import {
  LAUNCH_FEE_CONFIG,
  LAUNCH_GLOBAL,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
} from "../../launch/programs.js";
import {
  decodeLaunchFeeConfig,
  decodeLaunchGlobal,
  decodeSwapFeeConfig,
  decodeSwapGlobalConfig,
  type LaunchFeeConfig,
  type LaunchGlobal,
  type SwapFeeConfig,
  type SwapGlobalConfig,
} from "../../launch/state.js";
import { ApiError, EXECUTION } from "../../core/errors.js";
import type { TradeConfigs } from "./plan.js";
import type { ProgramGeneration } from "../../launch/generation.js";

const memo = new WeakMap<object, unknown>();

function decoded<T>(
  caches: Pick<ChainCaches, "account">,
  key: PublicKey,
  decode: (d: Buffer) => T,
): T | null {
  const account = caches.account(key);
  if (account === null) return null;
  let value = memo.get(account) as T | undefined;
  if (value === undefined) {
    value = decode(account.data);
    memo.set(account, value);
  }
  return value;
}

// A missing Global / GlobalConfig means the RPC does not serve the launch programs (wrong cluster or outage).
function required<T>(value: T | null): T {
  if (value === null) throw new ApiError(502, EXECUTION.cacheMissing);
  return value;
}

/** The launch program's Global (required) and FeeConfig (null when the cluster has none). */
export function curveConfigs(caches: Pick<ChainCaches, "account">): {
  global: LaunchGlobal;
  feeConfig: LaunchFeeConfig | null;
} {
  return {
    global: required(decoded(caches, LAUNCH_GLOBAL, decodeLaunchGlobal)),
    feeConfig: decoded(caches, LAUNCH_FEE_CONFIG, decodeLaunchFeeConfig),
  };
}

/** The swap program's GlobalConfig (required) and FeeConfig (null when the cluster has none). */
export function swapConfigs(caches: Pick<ChainCaches, "account">): {
  globalConfig: SwapGlobalConfig;
  feeConfig: SwapFeeConfig | null;
} {
  return {
    globalConfig: required(decoded(caches, SWAP_GLOBAL_CONFIG, decodeSwapGlobalConfig)),
    feeConfig: decoded(caches, SWAP_FEE_CONFIG, decodeSwapFeeConfig),
  };
}

/**
 * Both venues' configs as the trade plan asks for them: each decoded from the caches only when its venue
 * needs it; `generation` is the chain's verdict on the live programs (absent: legacy instructions).
 */
export function cachedTradeConfigs(
  caches: Pick<ChainCaches, "account">,
  generation?: () => ProgramGeneration,
): TradeConfigs {
  const configs: TradeConfigs = { curve: () => curveConfigs(caches), swap: () => swapConfigs(caches) };
  if (generation !== undefined) configs.generation = generation;
  return configs;
}

/** The generation getter of a chain that has one (test doubles may not). */
export function chainGeneration(chain: {
  programGeneration?: () => { generation: ProgramGeneration };
}): (() => ProgramGeneration) | undefined {
  const verdict = chain.programGeneration;
  return verdict === undefined ? undefined : () => verdict().generation;
}

/** The launch program's configs for a create (or a create-led bundle), under the chain's program generation. */
export function createConfigs(chain: {
  caches: Pick<ChainCaches, "account">;
  programGeneration?: () => { generation: ProgramGeneration };
}): ReturnType<typeof curveConfigs> & { generation?: ProgramGeneration } {
  const generation = chain.programGeneration?.().generation;
  return { ...curveConfigs(chain.caches), ...(generation !== undefined ? { generation } : {}) };
}
