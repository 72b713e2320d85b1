/** Sandbox mode: the in-process localnet, and a config whose chain URLs and tip accounts point at it. */
import { Keypair } from "@solana/web3.js";
import type { FastifyBaseLogger } from "fastify";
import type { LocalnetHandle } from "../../localnet/api.js";
import { startLocalnet } from "../../localnet/index.js";
import type { Chain } from "../chain/chain.js";
import type { Config } from "../config/config.js";
import { createLookupTableAddress, installCreateLookupTable } from "../domain/create/lookup-table.js";

// Slot 0 is always in the fresh localnet's SlotHashes, so the table's address is known before the chain exists.
const LOOKUP_TABLE_SLOT = 0;
const LOOKUP_TABLE_FUNDING_LAMPORTS = 1_000_000_000n;
const NO_AUTH = Object.freeze({ headers: {}, query: {} });

/** Starts the localnet for CLUSTER=localnet and fills in the chain settings the operator left unset. */
export async function startSandboxChain(
  config: Config,
  logger: Pick<FastifyBaseLogger, "info">,
): Promise<{
  localnet: LocalnetHandle;
  config: Config;
  /** Installs the create lookup table named in `config.lookupTables`; call once the chain has started. */
  installLookupTable(chain: Chain): Promise<void>;
}> {
  const localnet = await startLocalnet({
    port: config.localnetPort,
    slotMs: config.localnetSlotMs,
    programs: config.localnetPrograms,
    relayTipLamports: config.relayTipLamports,
    ...(config.relayTipAccounts.length > 0 ? { relayTipAccounts: [...config.relayTipAccounts] } : {}),
    ...(config.bundleTipAccounts !== undefined ? { bundleTipAccounts: [...config.bundleTipAccounts] } : {}),
  });
  logger.info(
    { rpcUrl: localnet.rpcUrl, relayUrl: localnet.relayUrl, bundleRelayUrl: localnet.bundleRelayUrl },
    "sandbox localnet started",
  );
  // The localnet starts empty every time: a fresh operator key creates the table create+buy needs.
  const tableAuthority = Keypair.generate();
  const table = createLookupTableAddress(tableAuthority.publicKey, LOOKUP_TABLE_SLOT).toBase58();
  const filled: Config = Object.freeze({
    ...config,
    rpcUrl: config.rpcUrl ?? localnet.rpcUrl,
    relayUrl: config.relayUrl ?? localnet.relayUrl,
    relays:
      config.relays.length > 0
        ? config.relays
        : Object.freeze([{ name: "localnet", url: localnet.relayUrl, auth: () => NO_AUTH }]),
    bundleRelayUrl: config.bundleRelayUrl ?? localnet.bundleRelayUrl,
    relayTipAccounts:
      config.relayTipAccounts.length > 0
        ? config.relayTipAccounts
        : Object.freeze([...localnet.relayTipAccounts]),
    bundleTipAccounts: config.bundleTipAccounts ?? Object.freeze([...localnet.bundleTipAccounts]),
    lookupTables: Object.freeze([...config.lookupTables, table]),
    // ROUTES=localnet-route-*: the localnet's landing routes, their tip accounts and minimums known only now.
    routes: Object.freeze(
      config.routes.map((r) => {
        const local = localnet.routes.find((l) => `localnet-${l.name}` === r.name);
        if (local === undefined) return r;
        const tip = r.tipLamports > local.minTipLamports ? r.tipLamports : local.minTipLamports;
        return Object.freeze({
          ...r,
          tipAccounts: Object.freeze([...local.tipAccounts]),
          minTipLamports: local.minTipLamports,
          tipLamports: tip,
        });
      }),
    ),
  });
  return {
    localnet,
    config: filled,
    async installLookupTable(chain) {
      localnet.admin.fund(tableAuthority.publicKey.toBase58(), LOOKUP_TABLE_FUNDING_LAMPORTS);
      await installCreateLookupTable(chain, tableAuthority, LOOKUP_TABLE_SLOT);
      await chain.caches.refresh();
      logger.info({ lookupTable: table }, "sandbox lookup table installed");
    },
  };
}
