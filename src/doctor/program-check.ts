/**
 * Both launch programs deployed, and their configuration accounts present, owned by the right program and
 * decodable with the SDK versions in use into plausible values. A program upgrade that changed a layout
 * fails here, loudly, before the first trade does.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountInfo, RpcClient } from "../chain/rpc-client.js";
import {
  LAUNCH_FEE_CONFIG,
  LAUNCH_FEE_PROGRAM_ID,
  LAUNCH_GLOBAL,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
} from "../launch/programs.js";
import {
  decodeLaunchFeeConfig,
  decodeLaunchGlobal,
  decodeSwapFeeConfig,
  decodeSwapGlobalConfig,
  type LaunchGlobal,
  type SwapGlobalConfig,
} from "../launch/state.js";
import { errorText, fail, ok, type CheckResult } from "./check.js";
import { feeConfigProblems, globalProblems, swapGlobalConfigProblems } from "./layout-invariants.js";
import { installedVersion } from "./sdk-versions.js";

/** The checks' results plus what later checks need (null when it did not decode). */
export interface ProgramCheckOutcome {
  results: CheckResult[];
  global: LaunchGlobal | null;
  swapGlobalConfig: SwapGlobalConfig | null;
}

function programResult(name: string, id: PublicKey, account: AccountInfo | null): CheckResult {
  if (account === null)
    return fail(name, `program ${id.toBase58()} does not exist on this cluster (RPC_URL / CLUSTER)`);
  if (!account.executable)
    return fail(name, `account ${id.toBase58()} exists but is not an executable program`);
  return ok(name, `program ${id.toBase58()} deployed`);
}

/** Decodes one config account and applies its plausibility rules; returns the value when it passes. */
function configResult<T>(
  name: string,
  key: PublicKey,
  owner: PublicKey,
  account: AccountInfo | null,
  sdk: string,
  decode: (data: Buffer) => T,
  problems: (value: T) => string[],
): { result: CheckResult; value: T | null } {
  const where = `${key.toBase58()}`;
  if (account === null) return { result: fail(name, `${where} does not exist on this cluster`), value: null };
  if (!account.owner.equals(owner)) {
    return {
      result: fail(name, `${where} is owned by ${account.owner.toBase58()}, expected ${owner.toBase58()}`),
      value: null,
    };
  }
  let value: T;
  try {
    value = decode(account.data);
  } catch (e) {
    return {
      result: fail(
        name,
        `${where} (${account.data.length} bytes) does not decode with ${sdk}: ${errorText(e)} — the program's layout changed; update the SDK before trading`,
      ),
      value: null,
    };
  }
  const broken = problems(value);
  if (broken.length > 0) {
    return {
      result: fail(
        name,
        `${where} (${account.data.length} bytes) decodes with ${sdk} into implausible values (${broken.join("; ")}) — the program's layout changed; update the SDK before trading`,
      ),
      value: null,
    };
  }
  return { result: ok(name, `${where} decodes with ${sdk} (${account.data.length} bytes)`), value };
}

/** One getMultipleAccounts for both programs and their four configuration accounts. */
export async function checkPrograms(
  rpc: Pick<RpcClient, "getMultipleAccounts">,
): Promise<ProgramCheckOutcome> {
  const keys = [
    LAUNCH_PROGRAM_ID,
    LAUNCH_SWAP_PROGRAM_ID,
    LAUNCH_GLOBAL,
    LAUNCH_FEE_CONFIG,
    SWAP_GLOBAL_CONFIG,
    SWAP_FEE_CONFIG,
  ];
  let accounts: (AccountInfo | null)[];
  try {
    accounts = (await rpc.getMultipleAccounts(keys)).value;
  } catch (e) {
    return {
      results: [fail("launch-programs", `RPC_URL does not answer getMultipleAccounts: ${errorText(e)}`)],
      global: null,
      swapGlobalConfig: null,
    };
  }
  const [launchProgram, swapProgram, global, feeConfig, swapGlobal, swapFee] = keys.map(
    (_, i) => accounts[i] ?? null,
  );
  const pumpSdk = `@pump-fun/pump-sdk ${installedVersion("@pump-fun/pump-sdk")}`;
  const swapSdk = `@pump-fun/pump-swap-sdk ${installedVersion("@pump-fun/pump-swap-sdk")}`;
  const g = configResult(
    "launch-global",
    LAUNCH_GLOBAL,
    LAUNCH_PROGRAM_ID,
    global ?? null,
    pumpSdk,
    decodeLaunchGlobal,
    globalProblems,
  );
  const f = configResult(
    "launch-fee-config",
    LAUNCH_FEE_CONFIG,
    LAUNCH_FEE_PROGRAM_ID,
    feeConfig ?? null,
    pumpSdk,
    decodeLaunchFeeConfig,
    feeConfigProblems,
  );
  const sg = configResult(
    "swap-global-config",
    SWAP_GLOBAL_CONFIG,
    LAUNCH_SWAP_PROGRAM_ID,
    swapGlobal ?? null,
    swapSdk,
    decodeSwapGlobalConfig,
    swapGlobalConfigProblems,
  );
  const sf = configResult(
    "swap-fee-config",
    SWAP_FEE_CONFIG,
    LAUNCH_FEE_PROGRAM_ID,
    swapFee ?? null,
    swapSdk,
    decodeSwapFeeConfig,
    feeConfigProblems,
  );
  return {
    results: [
      programResult("launch-program", LAUNCH_PROGRAM_ID, launchProgram ?? null),
      programResult("launchswap-program", LAUNCH_SWAP_PROGRAM_ID, swapProgram ?? null),
      g.result,
      f.result,
      sg.result,
      sf.result,
    ],
    global: g.value,
    swapGlobalConfig: sg.value,
  };
}
