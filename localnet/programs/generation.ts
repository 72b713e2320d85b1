/**
 * Which generation of the launch programs the localnet emulates. `2026-10` is the October 2026 upgrade
 * (v3 curve trades, swap v2 trades, fee sweeps, synthetic migration); `2026-09` is the program as it
 * was before it, where those instructions do not exist. Legacy and v2 instructions behave the same
 * on both.
 */

/** A program generation the localnet can emulate. */
export type ProgramGeneration = "2026-09" | "2026-10";

/** Every generation, oldest first. */
export const PROGRAM_GENERATIONS: readonly ProgramGeneration[] = ["2026-09", "2026-10"];

/** The live generation, emulated unless told otherwise. */
export const DEFAULT_PROGRAM_GENERATION: ProgramGeneration = "2026-10";

/** True when `value` names a generation. */
export function isProgramGeneration(value: unknown): value is ProgramGeneration {
  return typeof value === "string" && (PROGRAM_GENERATIONS as readonly string[]).includes(value);
}

/** Parses a setting (e.g. LOCALNET_PROGRAMS); unset or empty means the default. Throws on anything else. */
export function parseProgramGeneration(value: string | undefined): ProgramGeneration {
  if (value === undefined || value.trim() === "") return DEFAULT_PROGRAM_GENERATION;
  const v = value.trim();
  if (!isProgramGeneration(v))
    throw new Error(`LOCALNET_PROGRAMS must be one of ${PROGRAM_GENERATIONS.join(", ")} (got "${value}")`);
  return v;
}

/** True when the generation has the October 2026 instructions and account fields. */
export function hasOctoberUpgrade(generation: ProgramGeneration): boolean {
  return generation !== "2026-09";
}
