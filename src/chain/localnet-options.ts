import type { ChainOptions } from "./chain.js";

/** The parts of a running localnet the chain needs (structurally a `LocalnetHandle`). */
export interface LocalnetEndpoints {
  rpcUrl: string;
  relayUrl: string;
  bundleRelayUrl: string;
  relayTipAccounts: string[];
  bundleTipAccounts: string[];
  relayTipLamports: bigint;
}

/**
 * Chain options pointing every upstream at an in-process localnet (sandbox mode and tests), with short
 * timeouts suited to a local cluster; `overrides` win over every default.
 */
export function localnetChainOptions(
  net: LocalnetEndpoints,
  overrides: Partial<ChainOptions> = {},
): ChainOptions {
  return {
    rpcUrl: net.rpcUrl,
    relayUrl: net.relayUrl,
    bundleRelayUrl: net.bundleRelayUrl,
    relayTipAccounts: net.relayTipAccounts,
    relayTipLamports: net.relayTipLamports,
    bundleTipAccounts: net.bundleTipAccounts,
    computeUnitPrice: { mode: "fixed", microLamports: 10_000n },
    computeUnitLimits: { trade: 200_000, create: 400_000, transfer: 30_000, claim: 150_000 },
    rpcTimeoutMs: 5_000,
    confirmTimeoutMs: 30_000,
    bundleConfirmTimeoutMs: 30_000,
    confirmPollMs: 100,
    rebroadcastMs: 1_000,
    bundlePollMs: 250,
    cacheRefreshMs: 1_000,
    ...overrides,
  };
}
