/**
 * The emulated bonding-curve ("launch") program: the program itself, its genesis, and the decoders and
 * PDA helpers other localnet code uses.
 */
import type { AdminLedger, EmulatedProgram, InstructionContext } from "../types.js";
import { installGenesis } from "./genesis.js";
import { buildLaunchProgram } from "./program.js";
import type { ProgramGeneration } from "../generation.js";

/**
 * The emulated program; `cashbackCreation` lets create_v2 create cashback coins (the earlier program);
 * `migrate` executes the migrate instruction (launchswap/migrate.ts).
 */
export function createLaunchProgram(opts: {
  cashbackCreation: boolean;
  migrate?: (ctx: InstructionContext) => void;
  migrateV2?: (ctx: InstructionContext) => void;
  /** Program generation; default the live one (2026-10). */
  generation?: ProgramGeneration;
}): EmulatedProgram {
  return buildLaunchProgram({ cashbackCreation: opts.cashbackCreation }, opts.migrate, {
    generation: opts.generation,
    migrateV2: opts.migrateV2,
  });
}

/** Writes the program's genesis accounts (Global, FeeConfig, volume accumulator, recipients). */
export function installLaunchGenesis(ledger: AdminLedger, opts: { cashbackCreation: boolean }): void {
  installGenesis(ledger, opts);
}

export { readCurve, writeCurve, readGlobal, readFeeConfig } from "./state-access.js";
export { decodeCurve, encodeCurve, decodeUva, encodeUva, decodeGlobal, decodeFeeConfig } from "./layouts.js";
export type { Curve, UserVolumeAccumulator, GlobalState, FeeConfigState } from "./layouts.js";
export {
  curveAddress,
  curveTokenAccount,
  curveV2Address,
  creatorVaultAddress,
  userVolumeAccumulatorAddress,
  GLOBAL_ADDRESS,
  FEE_CONFIG_ADDRESS,
  EVENT_AUTHORITY_ADDRESS,
  GLOBAL_VOLUME_ACCUMULATOR_ADDRESS,
  MINT_AUTHORITY_ADDRESS,
} from "./pda.js";
export {
  LAUNCH_PROGRAM_ID,
  FEE_RECIPIENTS,
  RESERVED_FEE_RECIPIENTS,
  BUYBACK_FEE_RECIPIENTS,
} from "./constants.js";
export { createToken, completeCurve, setBondingCashback } from "./admin.js";
export { createdMintLen } from "./ix-create.js";
export { readBuckets, CURVE_CURRENT_SIZE } from "./curve-buckets.js";
export type { CurveBuckets } from "./curve-buckets.js";
