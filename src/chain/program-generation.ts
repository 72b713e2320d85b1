/**
 * Decides the program generation the service trades with (src/launch/generation.ts): the configured one,
 * or with `auto` a probe at start: one simulated `sell_v3` of amount 0 on the launch program, paid by the
 * first funded wallet among Global's fee recipients (simulation checks the fee payer; nothing is sent).
 */
import {
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import {
  ANCHOR_INSTRUCTION_FALLBACK_NOT_FOUND,
  PROGRAM_GENERATION_SETTINGS,
  generationFromProbe,
  type GenerationVerdict,
  type ProgramGenerationSetting,
} from "../launch/generation.js";
import { LAUNCH_GLOBAL } from "../launch/programs.js";
import { decodeLaunchGlobal, type LaunchGlobal } from "../launch/state.js";
import { buildUpgradeInstruction } from "../launch/upgrade-idl.js";
import { buildCurveSellV3 } from "../launch/v3-instructions.js";
import { TOKEN_2022_ID } from "../launch/programs.js";
import type { RpcClient } from "./rpc-client.js";

// Re-exported for config/, which may import chain but not launch.
export { PROGRAM_GENERATION_SETTINGS, type ProgramGenerationSetting };

type ProbeRpc = Pick<
  RpcClient,
  "getAccountInfo" | "getMultipleAccounts" | "getLatestBlockhash" | "simulateTransaction"
>;

/** The custom error code of a TransactionError `{InstructionError: [i, {Custom: n}]}`, else null. */
function customCode(err: unknown): number | null {
  if (typeof err !== "object" || err === null || !("InstructionError" in err)) return null;
  const ie = (err as { InstructionError: unknown }).InstructionError;
  if (!Array.isArray(ie)) return null;
  const detail = ie[1] as unknown;
  if (typeof detail === "object" && detail !== null && "Custom" in detail) {
    const n = (detail as { Custom: unknown }).Custom;
    return typeof n === "number" ? n : null;
  }
  return null;
}

/** A funded system wallet among Global's fee recipients (simulation needs a fee payer that exists). */
async function probePayer(rpc: ProbeRpc): Promise<{ payer: PublicKey; global: LaunchGlobal } | string> {
  const globalAccount = (await rpc.getAccountInfo(LAUNCH_GLOBAL)).value;
  if (globalAccount === null) return "no launch Global on this cluster";
  const global = decodeLaunchGlobal(globalAccount.data);
  const candidates = [global.feeRecipient, ...global.feeRecipients, ...global.buybackFeeRecipients].filter(
    (k) => !k.equals(PublicKey.default),
  );
  const infos = (await rpc.getMultipleAccounts(candidates)).value;
  const payer = candidates.find((_, i) => {
    const info = infos[i];
    return (
      info !== null &&
      info !== undefined &&
      info.owner.equals(SystemProgram.programId) &&
      BigInt(info.lamports) > 0n
    );
  });
  return payer === undefined ? "no funded fee recipient to pay the simulation" : { payer, global };
}

/** Simulates `ix` paid by `payer`: its custom error code (null when none) and the error's text. */
async function simulateOne(
  rpc: ProbeRpc,
  payer: PublicKey,
  ix: TransactionInstruction,
): Promise<{ code: number | null; text: string }> {
  const { blockhash } = (await rpc.getLatestBlockhash()).value;
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: [ix] });
  const wire = new VersionedTransaction(message.compileToV0Message()).serialize();
  const { value } = await rpc.simulateTransaction(wire);
  if (value.err === null || value.err === undefined) return { code: null, text: "the probe did not fail" };
  return { code: customCode(value.err), text: JSON.stringify(value.err) };
}

/** What the probes found: the verdict (from the launch program) and whether the swap program knows sell_v2. */
export interface GenerationProbe {
  verdict: GenerationVerdict;
  /** True / false when the swap probe ran; null when it could not. */
  swapKnowsV2: boolean | null;
}

/** Runs the probes (launch sell_v3, and with `swap` launchswap sell_v2); never throws. */
export async function probeProgramGenerations(rpc: ProbeRpc, swap = false): Promise<GenerationProbe> {
  try {
    const found = await probePayer(rpc);
    if (typeof found === "string") return { verdict: generationFromProbe(null, found), swapKnowsV2: null };
    const { payer, global } = found;
    // Any mint: the upgraded program fails on the accounts, the older one before reading them.
    const mint = Keypair.generate().publicKey;
    const [ix] = buildCurveSellV3({
      global,
      mint,
      user: payer,
      tokenProgram: TOKEN_2022_ID,
      amount: 0n,
      minSolOutput: 0n,
      random: () => 0,
    });
    const launch = await simulateOne(rpc, payer, ix!);
    const verdict = generationFromProbe(launch.code, launch.text);
    if (!swap) return { verdict, swapKnowsV2: null };
    const sellV2 = buildUpgradeInstruction(
      "launchswap",
      "sell_v2",
      {
        pool: mint,
        user: payer,
        global_config: mint,
        base_mint: mint,
        quote_mint: mint,
        user_base_token_account: mint,
        user_quote_token_account: mint,
        pool_base_token_account: mint,
        pool_quote_token_account: mint,
        base_token_program: TOKEN_2022_ID,
        quote_token_program: TOKEN_2022_ID,
        user_volume_accumulator: mint,
        fee_config: mint,
        buyback_fee_recipient: mint,
        event_authority: mint,
      },
      { base_amount_in: 0n, min_quote_amount_out: 0n },
    );
    const pool = await simulateOne(rpc, payer, sellV2);
    return {
      verdict,
      swapKnowsV2: pool.code === null ? null : pool.code !== ANCHOR_INSTRUCTION_FALLBACK_NOT_FOUND,
    };
  } catch (e) {
    return {
      verdict: generationFromProbe(null, e instanceof Error ? e.message : String(e)),
      swapKnowsV2: null,
    };
  }
}

/** Runs the launch probe; never throws (an unreachable RPC is a fallback verdict). */
export async function probeProgramGeneration(rpc: ProbeRpc): Promise<GenerationVerdict> {
  return (await probeProgramGenerations(rpc)).verdict;
}

/** The verdict for `setting`: configured generations as they are, `auto` by the probe. */
export async function decideProgramGeneration(
  setting: ProgramGenerationSetting,
  rpc: ProbeRpc,
): Promise<GenerationVerdict> {
  if (setting !== "auto")
    return { generation: setting, source: "configured", reason: "PROGRAM_GENERATION is set" };
  return probeProgramGeneration(rpc);
}
