/**
 * Which generation of the two launch programs is live, and what the service trades with on it.
 * "2026-09": before the October 2026 upgrade (legacy buy/sell and buy_exact_sol_in on the curve, v1
 * on the pool). "2026-10": v3 curve trades, launchswap v2 trades, synthetic migration, fee sweeps.
 * The legacy instructions still work on 2026-10, so legacy is the safe answer whenever it is unknown.
 */

/** A program generation, named by the month it went live. */
export type ProgramGeneration = "2026-09" | "2026-10";

/** The operator's setting: a generation, or `auto` (probe the cluster at start). */
export type ProgramGenerationSetting = ProgramGeneration | "auto";

/** Every accepted value of the setting. */
export const PROGRAM_GENERATION_SETTINGS: readonly ProgramGenerationSetting[] = [
  "auto",
  "2026-09",
  "2026-10",
];

/** The generation in force and how it was decided (the doctor and the start banner print both). */
export interface GenerationVerdict {
  readonly generation: ProgramGeneration;
  /** "configured", "detected", or "fallback" (auto could not tell: legacy, which both generations accept). */
  readonly source: "configured" | "detected" | "fallback";
  /** One sentence: the probe's evidence or why it could not tell. */
  readonly reason: string;
}

/** Anchor's InstructionFallbackNotFound: the program has no instruction with that discriminator. */
export const ANCHOR_INSTRUCTION_FALLBACK_NOT_FOUND = 101;

/**
 * Reads the probe: a simulated `sell_v3` (amount 0) on the launch program. An older program answers
 * InstructionFallbackNotFound (101); the upgraded one knows the instruction and fails on its accounts or
 * amount instead. `customCode` is the custom program error of the probe's instruction (null: none).
 */
export function generationFromProbe(customCode: number | null, errText: string): GenerationVerdict {
  if (customCode === ANCHOR_INSTRUCTION_FALLBACK_NOT_FOUND) {
    return {
      generation: "2026-09",
      source: "detected",
      reason: "the launch program does not know sell_v3 (error 101)",
    };
  }
  if (customCode !== null) {
    return {
      generation: "2026-10",
      source: "detected",
      reason: `the launch program knows sell_v3 (it failed the probe with its own error ${customCode})`,
    };
  }
  return { generation: "2026-09", source: "fallback", reason: `the probe was inconclusive (${errText})` };
}

/** What the service trades with under `generation`, per venue and coin kind (the doctor prints it). */
export function instructionsUsed(generation: ProgramGeneration): {
  curve: string;
  pool: string;
  cashback: string;
} {
  if (generation === "2026-09") {
    return {
      curve: "buy_exact_sol_in / buy / sell (legacy)",
      pool: "buy / sell (v1)",
      cashback: "the same legacy instructions",
    };
  }
  return {
    curve:
      "buy_exact_quote_in_v3 / buy_v3 / sell_v3 (17 accounts; synthetic migration on the completing buy)",
    pool: "buy_v2 / sell_v2 (17 accounts)",
    cashback: "legacy curve and v1 pool instructions (cashback coins refuse v3 and v2)",
  };
}

/** Curve account sizes each generation writes (bytes; accounts only grow, older sizes stay readable). */
export const CURVE_ACCOUNT_SIZES: readonly number[] = [125, 151, 166, 256];
