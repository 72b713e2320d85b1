/**
 * The address lookup table that lets a create with its first buy fit 1232 bytes (src/launch/lookup-table.ts
 * says why). An operator step, run once per cluster: the sandbox / tests on the localnet, an operator on
 * mainnet (`npm run lookup-table`); the service then lists the table's address in its chain options
 * (`lookupTables`).
 */
import { AddressLookupTableProgram, type Keypair, type PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import { staticLookupAddresses } from "../../launch/lookup-table.js";
import { curveConfigs, swapConfigs } from "../trade/configs.js";

/** Addresses per extend transaction: 20 × 32 bytes keeps a tipped legacy transaction well under 1232 bytes. */
export const EXTEND_CHUNK = 20;

type TableChain = Pick<Chain, "assemble" | "submit" | "caches" | "relayTip" | "bundleTipAccounts">;

/** The table `authority` creates at `recentSlot` (deterministic, so options can name it before it exists). */
export function createLookupTableAddress(authority: PublicKey, recentSlot: number): PublicKey {
  return AddressLookupTableProgram.createLookupTable({
    authority,
    payer: authority,
    recentSlot,
  })[1];
}

/** What the create table must hold on this chain: the static launch addresses and both relays' tip accounts. */
export async function createLookupTableContents(
  chain: Pick<Chain, "caches" | "relayTip" | "bundleTipAccounts">,
): Promise<PublicKey[]> {
  return staticLookupAddresses({
    global: curveConfigs(chain.caches).global,
    swapGlobalConfig: swapConfigs(chain.caches).globalConfig,
    tipAccounts: [...chain.relayTip().accounts, ...(await chain.bundleTipAccounts())],
  });
}

async function sendConfirmed(
  chain: TableChain,
  authority: Keypair,
  ix: Parameters<TableChain["assemble"]>[0]["instructions"][number],
): Promise<void> {
  const tx = chain.assemble({ kind: "create", payer: authority, instructions: [ix], version: "legacy" });
  const r = await chain.submit(tx, { simulate: true, confirm: true, simulationFailedDetail: "lookup table" });
  if (!r.confirmed) throw new Error(`lookup table transaction ${r.signature} was not confirmed`);
}

/** Appends `addresses` to `table` (owned by `authority`, who pays), one confirmed transaction per chunk. */
export async function extendCreateLookupTable(
  chain: TableChain,
  authority: Keypair,
  table: PublicKey,
  addresses: readonly PublicKey[],
): Promise<void> {
  for (let i = 0; i < addresses.length; i += EXTEND_CHUNK) {
    await sendConfirmed(
      chain,
      authority,
      AddressLookupTableProgram.extendLookupTable({
        lookupTable: table,
        authority: authority.publicKey,
        payer: authority.publicKey,
        addresses: addresses.slice(i, i + EXTEND_CHUNK),
      }),
    );
  }
}

/**
 * Creates the table (authority pays, `recentSlot` must be in the cluster's SlotHashes) and fills it with the
 * static launch addresses plus both relays' tip accounts, one confirmed transaction at a time; returns it.
 */
export async function installCreateLookupTable(
  chain: TableChain,
  authority: Keypair,
  recentSlot: number,
): Promise<PublicKey> {
  const [create, table] = AddressLookupTableProgram.createLookupTable({
    authority: authority.publicKey,
    payer: authority.publicKey,
    recentSlot,
  });
  const addresses = await createLookupTableContents(chain);
  await sendConfirmed(chain, authority, create);
  await extendCreateLookupTable(chain, authority, table, addresses);
  return table;
}
