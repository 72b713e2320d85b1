/** Sandbox mode: the in-process localnet, and a config whose chain URLs and tip accounts point at it. */
import type { FastifyBaseLogger } from "fastify";
import type { LocalnetHandle } from "../localnet/api.js";
import { startLocalnet } from "../localnet/index.js";
import type { Config } from "./config.js";

/** Starts the localnet for CLUSTER=localnet and fills in the chain settings the operator left unset. */
export async function startSandboxChain(
  config: Config,
  logger: Pick<FastifyBaseLogger, "info">,
): Promise<{ localnet: LocalnetHandle; config: Config }> {
  const localnet = await startLocalnet({
    port: config.localnetPort,
    slotMs: config.localnetSlotMs,
    relayTipLamports: config.relayTipLamports,
    ...(config.relayTipAccounts.length > 0 ? { relayTipAccounts: [...config.relayTipAccounts] } : {}),
    ...(config.bundleTipAccounts !== undefined ? { bundleTipAccounts: [...config.bundleTipAccounts] } : {}),
  });
  logger.info(
    { rpcUrl: localnet.rpcUrl, relayUrl: localnet.relayUrl, bundleRelayUrl: localnet.bundleRelayUrl },
    "sandbox localnet started",
  );
  const filled: Config = Object.freeze({
    ...config,
    rpcUrl: config.rpcUrl ?? localnet.rpcUrl,
    relayUrl: config.relayUrl ?? localnet.relayUrl,
    bundleRelayUrl: config.bundleRelayUrl ?? localnet.bundleRelayUrl,
    relayTipAccounts:
      config.relayTipAccounts.length > 0
        ? config.relayTipAccounts
        : Object.freeze([...localnet.relayTipAccounts]),
    bundleTipAccounts: config.bundleTipAccounts ?? Object.freeze([...localnet.bundleTipAccounts]),
  });
  return { localnet, config: filled };
}
