/** The configured lookup tables exist, are active, and together hold the launch addresses a create needs. */
import { AddressLookupTableAccount, PublicKey } from "@solana/web3.js";
import type { RpcClient } from "../chain/rpc-client.js";
import { staticLookupAddresses } from "../launch/lookup-table.js";
import type { LaunchGlobal, SwapGlobalConfig } from "../launch/state.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

const NAME = "lookup-table";
const LOOKUP_TABLE_PROGRAM = new PublicKey("AddressLookupTab1e1111111111111111111111111");
const ACTIVE = BigInt("18446744073709551615");

/** Inputs: LOOKUP_TABLES and the decoded configs (null when they failed their own check). */
export interface LookupTableCheckInput {
  tables: readonly string[];
  global: LaunchGlobal | null;
  swapGlobalConfig: SwapGlobalConfig | null;
}

/** Reads every table in one call and compares their union with the static launch addresses. */
export async function checkLookupTables(
  rpc: Pick<RpcClient, "getMultipleAccounts">,
  input: LookupTableCheckInput,
): Promise<CheckResult> {
  if (input.tables.length === 0) {
    return warn(
      NAME,
      "LOOKUP_TABLES is empty: a create with its first buy will not fit 1232 bytes (npm run lookup-table)",
    );
  }
  const keys = input.tables.map((t) => new PublicKey(t));
  let accounts;
  try {
    accounts = (await rpc.getMultipleAccounts(keys)).value;
  } catch (e) {
    return fail(NAME, `RPC_URL does not answer getMultipleAccounts: ${errorText(e)}`);
  }
  const held = new Set<string>();
  for (const [i, key] of keys.entries()) {
    const account = accounts[i] ?? null;
    const where = `LOOKUP_TABLES entry ${key.toBase58()}`;
    if (account === null) return fail(NAME, `${where} does not exist on this cluster (npm run lookup-table)`);
    if (!account.owner.equals(LOOKUP_TABLE_PROGRAM))
      return fail(NAME, `${where} is not an address lookup table`);
    let state;
    try {
      state = AddressLookupTableAccount.deserialize(account.data);
    } catch (e) {
      return fail(NAME, `${where} does not decode as a lookup table: ${errorText(e)}`);
    }
    if (state.deactivationSlot !== ACTIVE) return fail(NAME, `${where} is deactivated`);
    for (const a of state.addresses) held.add(a.toBase58());
  }
  if (input.global === null || input.swapGlobalConfig === null) {
    return warn(
      NAME,
      `${keys.length} table(s) exist with ${held.size} addresses; contents not compared (launch configs did not decode)`,
    );
  }
  const expected = staticLookupAddresses({
    global: input.global,
    swapGlobalConfig: input.swapGlobalConfig,
    tipAccounts: [],
  });
  const missing = expected.filter((k) => !held.has(k.toBase58()));
  if (missing.length > 0) {
    return fail(
      NAME,
      `LOOKUP_TABLES lack ${missing.length} of the ${expected.length} launch addresses (first: ${missing[0]!.toBase58()}); extend with npm run lookup-table -- --table <address>`,
    );
  }
  return ok(NAME, `${keys.length} table(s) hold all ${expected.length} launch addresses`);
}
