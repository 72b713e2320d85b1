/** The emulated swap ("launchswap") program: its registry entry and genesis. */
import type { EmulatedProgram } from "../types.js";
import type { ProgramGeneration } from "../generation.js";
import { createSwapProgram } from "./program.js";

export { installLaunchSwapGenesis, genesisGlobalConfig } from "./genesis.js";
export { SWAP_ERR } from "./errors.js";

/** The swap program as the ledger's registry registers it (default generation: the live one). */
export function createLaunchSwapProgram(generation?: ProgramGeneration): EmulatedProgram {
  return createSwapProgram(generation);
}
