/**
 * Decides the program generation the service trades with (src/launch/generation.ts): the configured one,
 * or with `auto` a probe at start: one simulated `sell_v3` of amount 0 on the launch program, paid by the
 * first funded wallet among Global's fee recipients (simulation checks the fee payer; nothing is sent).
 */
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import {
  PROGRAM_GENERATION_SETTINGS,
  generationFromProbe,
  type GenerationVerdict,
  type ProgramGenerationSetting,
} from "../launch/generation.js";
import { LAUNCH_GLOBAL } from "../launch/programs.js";
import { decodeLaunchGlobal } from "../launch/state.js";
import { buildCurveSellV3 } from "../launch/v3-instructions.js";
import { TOKEN_2022_ID } from "../launch/programs.js";
import type { RpcClient } from "./rpc-client.js";

// Re-exported for config/, which may import chain but not launch.
export { PROGRAM_GENERATION_SETTINGS, type ProgramGenerationSetting };

type ProbeRpc = Pick<RpcClient, "getAccountInfo" | "getMultipleAccounts" | "getLatestBlockhash" | "simulateTransaction">;

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

/** Runs the probe; never throws (an unreachable RPC is a fallback verdict). */
export async function probeProgramGeneration(rpc: ProbeRpc): Promise<GenerationVerdict> {
  try {
    const globalAccount = (await rpc.getAccountInfo(LAUNCH_GLOBAL)).value;
    if (globalAccount === null) return generationFromProbe(null, "no launch Global on this cluster");
    const global = decodeLaunchGlobal(globalAccount.data);
    const candidates = [global.feeRecipient, ...global.feeRecipients, ...global.buybackFeeRecipients].filter(
      (k) => !k.equals(PublicKey.default),
    );
    const infos = (await rpc.getMultipleAccounts(candidates)).value;
    const payer = candidates.find((_, i) => {
      const info = infos[i];
      return info !== null && info !== undefined && info.owner.equals(SystemProgram.programId) && BigInt(info.lamports) > 0n;
    });
    if (payer === undefined) return generationFromProbe(null, "no funded fee recipient to pay the simulation");
    const [ix] = buildCurveSellV3({
      global,
      // Any mint: the upgraded program fails on the accounts, the older one before reading them.
      mint: Keypair.generate().publicKey,
      user: payer,
      tokenProgram: TOKEN_2022_ID,
      amount: 0n,
      minSolOutput: 0n,
      random: () => 0,
    });
    const { blockhash } = (await rpc.getLatestBlockhash()).value;
    const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: [ix!] });
    const wire = new VersionedTransaction(message.compileToV0Message()).serialize();
    const { value } = await rpc.simulateTransaction(wire);
    if (value.err === null || value.err === undefined) return generationFromProbe(null, "the probe did not fail");
    return generationFromProbe(customCode(value.err), JSON.stringify(value.err));
  } catch (e) {
    return generationFromProbe(null, e instanceof Error ? e.message : String(e));
  }
}

/** The verdict for `setting`: configured generations as they are, `auto` by the probe. */
export async function decideProgramGeneration(
  setting: ProgramGenerationSetting,
  rpc: ProbeRpc,
): Promise<GenerationVerdict> {
  if (setting !== "auto") return { generation: setting, source: "configured", reason: "PROGRAM_GENERATION is set" };
  return probeProgramGeneration(rpc);
}
