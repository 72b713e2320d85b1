/**
 * Which generation of the launch programs is live (their instruction set, probed by simulation, and the
 * sizes of their config accounts), what PROGRAM_GENERATION makes the service use, and whether the two
 * agree. The service runs the same launch probe at start when PROGRAM_GENERATION=auto (the default).
 */
import { probeProgramGenerations, type ProgramGenerationSetting } from "../chain/program-generation.js";
import type { RpcClient } from "../chain/rpc-client.js";
import { CURVE_ACCOUNT_SIZES, instructionsUsed, type ProgramGeneration } from "../launch/generation.js";
import { LAUNCH_GLOBAL, SWAP_GLOBAL_CONFIG } from "../launch/programs.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

const NAME = "program-generation";

type GenerationRpc = Pick<
  RpcClient,
  "getAccountInfo" | "getMultipleAccounts" | "getLatestBlockhash" | "simulateTransaction"
>;

function uses(generation: ProgramGeneration): string {
  const u = instructionsUsed(generation);
  return `the service uses: curve ${u.curve}; pool ${u.pool}; cashback coins ${u.cashback}`;
}

async function sizes(rpc: GenerationRpc): Promise<string> {
  try {
    const { value } = await rpc.getMultipleAccounts([LAUNCH_GLOBAL, SWAP_GLOBAL_CONFIG]);
    const [g, gc] = value;
    return (
      `Global ${g?.data.length ?? "missing"} bytes, GlobalConfig ${gc?.data.length ?? "missing"} bytes; ` +
      `curves of ${CURVE_ACCOUNT_SIZES.join("/")} bytes all decode (no exact-size decoding)`
    );
  } catch (e) {
    return `account sizes unreadable (${errorText(e)})`;
  }
}

/** The program-generation check for `setting` (PROGRAM_GENERATION). */
export async function checkProgramGeneration(
  rpc: GenerationRpc,
  setting: ProgramGenerationSetting,
): Promise<CheckResult> {
  const [probe, accountSizes] = await Promise.all([probeProgramGenerations(rpc, true), sizes(rpc)]);
  const { verdict, swapKnowsV2 } = probe;
  const swap =
    swapKnowsV2 === null
      ? "launchswap not probed"
      : `launchswap ${swapKnowsV2 ? "knows" : "does not know"} sell_v2`;
  const evidence = `${verdict.reason}; ${swap}; ${accountSizes}`;
  if (verdict.source === "fallback") {
    if (setting === "2026-10")
      return warn(
        NAME,
        `could not confirm the live generation (${evidence}); PROGRAM_GENERATION=2026-10: ${uses("2026-10")}`,
      );
    return warn(
      NAME,
      `could not tell the live generation (${evidence}); ${uses("2026-09")} (both generations accept them)`,
    );
  }
  const live = verdict.generation;
  if (live === "2026-10" && swapKnowsV2 === false)
    return fail(
      NAME,
      `2026-10 on the curve but the swap program is older (${evidence}): pool trades would fail as v2; set PROGRAM_GENERATION=2026-09`,
    );
  if (setting === "2026-10" && live === "2026-09")
    return fail(
      NAME,
      `PROGRAM_GENERATION=2026-10 but the live programs are 2026-09 (${evidence}): v3 trades would fail; set auto or 2026-09`,
    );
  if (setting === "2026-09" && live === "2026-10")
    return warn(
      NAME,
      `2026-10 is live (${evidence}) but PROGRAM_GENERATION=2026-09 pins ${instructionsUsed("2026-09").curve}: larger transactions and more compute units than v3`,
    );
  return ok(NAME, `${live} is live (${evidence}); ${uses(setting === "auto" ? live : setting)}`);
}
