/** Tip accounts are valid keys that exist on this cluster (a tip below rent exemption to a missing account fails). */
import { PublicKey } from "@solana/web3.js";
import type { RpcClient } from "../chain/rpc-client.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

/** What is checked: the setting's name (for the message), its accounts and the tip paid to them. */
export interface TipAccountsInput {
  name: string;
  setting: string;
  accounts: readonly string[];
  /** Undefined for bundle tips (the amount is per request). */
  tipLamports?: bigint;
}

/** Minimum balance of a 0-byte account: a transfer that leaves a new account below it fails. */
const RENT_EXEMPT_ZERO_DATA = 890_880n;

/** One getMultipleAccounts over the accounts. */
export async function checkTipAccounts(
  rpc: Pick<RpcClient, "getMultipleAccounts">,
  input: TipAccountsInput,
): Promise<CheckResult> {
  if (input.accounts.length === 0) return ok(input.name, "no tip accounts: the relays named take no tip");
  const keys: PublicKey[] = [];
  for (const a of input.accounts) {
    try {
      keys.push(new PublicKey(a));
    } catch {
      return fail(input.name, `${input.setting} holds "${a}", which is not a public key`);
    }
  }
  if (input.tipLamports !== undefined && input.tipLamports <= 0n) {
    return fail(input.name, `RELAY_TIP_LAMPORTS is 0 but ${input.setting} names tip accounts`);
  }
  let accounts;
  try {
    accounts = (await rpc.getMultipleAccounts(keys)).value;
  } catch (e) {
    return fail(input.name, `RPC_URL does not answer getMultipleAccounts: ${errorText(e)}`);
  }
  const missing = keys.filter((_, i) => (accounts[i] ?? null) === null);
  if (missing.length > 0) {
    const detail = `${missing.length} of ${keys.length} ${input.setting} do not exist on this cluster (first: ${missing[0]!.toBase58()})`;
    if (input.tipLamports !== undefined && input.tipLamports < RENT_EXEMPT_ZERO_DATA) {
      return fail(
        input.name,
        `${detail}; a tip of ${input.tipLamports} lamports to one would fail — wrong cluster or wrong ${input.setting}`,
      );
    }
    return warn(input.name, `${detail} — wrong cluster or wrong ${input.setting}?`);
  }
  return ok(
    input.name,
    `${keys.length} ${input.setting} exist${input.tipLamports !== undefined ? `; tip ${input.tipLamports} lamports` : ""}`,
  );
}
