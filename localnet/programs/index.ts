/** Registry of the emulated launch programs and their operator helpers, as the localnet wires them. */
import type { PublicKey } from "@solana/web3.js";
import { createLaunchProgram, installLaunchGenesis } from "./launch/index.js";
import { completeCurve, createToken, setBondingCashback } from "./launch/admin.js";
import { setGlobalLayout } from "./launch/global-layout.js";
import { createLaunchSwapProgram, installLaunchSwapGenesis } from "./launchswap/index.js";
import { migrateCurve, setSwapCashback } from "./launchswap/admin.js";
import { executeMigrate } from "./launchswap/migrate.js";
import { executeMigrateV2 } from "./launchswap/migrate-v2.js";
import { DEFAULT_PROGRAM_GENERATION, type ProgramGeneration } from "./generation.js";
import type { AdminLedger, EmulatedProgram } from "./types.js";

/** Operator helpers over the emulated programs' state. */
export interface LaunchOperator {
  createToken(
    ledger: AdminLedger,
    opts: { name?: string; symbol?: string; uri?: string; mayhem?: boolean; cashback?: boolean },
  ): { mint: PublicKey; creator: PublicKey };
  completeCurve(ledger: AdminLedger, mint: PublicKey): void;
  /** Runs the program's own `migrate` instruction as a recorded operator transaction. */
  migrateCurve(
    ledger: AdminLedger,
    mint: PublicKey,
    instruction?: "migrate" | "migrate_v2",
  ): { pool: PublicKey; signature: string };
  setBondingCashback(ledger: AdminLedger, user: PublicKey, lamports: bigint): void;
  setSwapCashback(ledger: AdminLedger, user: PublicKey, lamports: bigint): void;
  /** Rewrites the launch Global account with an unexpected layout, or back (doctor tests). */
  setGlobalLayout(ledger: AdminLedger, layout: "original" | "altered"): void;
}

/** The emulated programs for a genesis variant and program generation (default: the live one, 2026-10). */
export function emulatedPrograms(opts: {
  cashbackCreation: boolean;
  generation?: ProgramGeneration;
}): EmulatedProgram[] {
  const generation = opts.generation ?? DEFAULT_PROGRAM_GENERATION;
  return [
    createLaunchProgram({
      cashbackCreation: opts.cashbackCreation,
      migrate: executeMigrate,
      migrateV2: executeMigrateV2,
      generation,
    }),
    createLaunchSwapProgram(generation),
  ];
}

/** Writes both programs' genesis accounts. */
export function installGenesis(ledger: AdminLedger, opts: { cashbackCreation: boolean }): void {
  installLaunchGenesis(ledger, opts);
  installLaunchSwapGenesis(ledger);
}

/** The operator helpers. */
export const launchOperator: LaunchOperator = {
  createToken,
  completeCurve,
  migrateCurve,
  setBondingCashback,
  setSwapCashback,
  setGlobalLayout,
};
