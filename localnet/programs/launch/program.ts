/** The emulated bonding-curve program: decodes each instruction with the SDK's IDL and dispatches it. */
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import type { EmulatedProgram, InstructionContext } from "../types.js";
import { LAUNCH_PROGRAM_ID } from "./constants.js";
import { type Exec } from "./exec-support.js";
import { anchorFail } from "./failures.js";
import { pumpInstructionCoder } from "./idl-coder.js";
import { executeClaimCashback, executeExtendAccount, executeInitUva } from "./ix-accounts.js";
import { executeCreateV2, type CreateSwitches } from "./ix-create.js";
import { executeTrade } from "./ix-trade.js";
import { DEFAULT_PROGRAM_GENERATION, hasOctoberUpgrade, type ProgramGeneration } from "../generation.js";
import { decodeUpgradeInstruction, type DecodedUpgradeInstruction } from "../upgrade/instructions.js";
import { executeCurveSweep } from "./ix-sweep.js";
import { executeTradeV3 } from "./ix-trade-v3.js";

const big = (v: unknown): bigint => BigInt((v as BN).toString());
/** OptionBool / OptionU64 are IDL tuple structs: `{ 0: value }`. */
const tuple0 = (v: unknown): unknown => (v == null ? null : (v as Record<string, unknown>)["0"]);

/** The program generation and the migration handlers that write the swap program's pool. */
export interface LaunchProgramOptions {
  generation?: ProgramGeneration;
  /** Executes `migrate_v2` (launchswap/migrate-v2.ts). */
  migrateV2?: (ctx: InstructionContext) => void;
}

/** Runs an October 2026 instruction. */
function executeUpgrade(x: Exec, ctx: InstructionContext, d: DecodedUpgradeInstruction): void {
  const name = d.spec.name;
  if (name === "sweep_protocol_fee") return executeCurveSweep(x, ctx.accounts, "protocol");
  if (name === "sweep_creator_fee") return executeCurveSweep(x, ctx.accounts, "creator");
  if (name !== "buy_v3" && name !== "buy_exact_quote_in_v3" && name !== "sell_v3")
    return anchorFail(x.log, "InstructionFallbackNotFound");
  const [first, second] = d.spec.args.map((a) => d.args[a.name]);
  return executeTradeV3(x, ctx.accounts, name, {
    first: first as bigint,
    second: second as bigint,
    partialFill: d.args["partial_fill"] === true,
  });
}

/**
 * Builds the emulated program (switches fixed at genesis). `migrate` executes the `migrate`
 * instruction; it is passed in because it writes the swap program's pool (launchswap/migrate.ts).
 * On the 2026-10 generation the October 2026 instructions exist too; on 2026-09 they fail like any
 * unknown instruction (InstructionFallbackNotFound).
 */
export function buildLaunchProgram(
  sw: CreateSwitches,
  migrate?: (ctx: InstructionContext) => void,
  opts: LaunchProgramOptions = {},
): EmulatedProgram {
  const upgraded = hasOctoberUpgrade(opts.generation ?? DEFAULT_PROGRAM_GENERATION);
  // null connection: decoding never touches the network (offline program, as the SDK does).
  const coder = pumpInstructionCoder;
  return {
    programId: LAUNCH_PROGRAM_ID,
    execute(ctx: InstructionContext): void {
      const x: Exec = { ledger: ctx.ledger, log: (l) => ctx.log(l), programId: ctx.programId };
      if (upgraded) {
        const u = decodeUpgradeInstruction("launch", ctx.data);
        if (u === "malformed") anchorFail(x.log, "InstructionDidNotDeserialize");
        if (u !== "unknown") return executeUpgrade(x, ctx, u);
      }
      let decoded: { name: string; data: Record<string, unknown> } | null;
      try {
        decoded = coder.decode(Buffer.from(ctx.data)) as typeof decoded;
      } catch {
        anchorFail(x.log, "InstructionDidNotDeserialize");
      }
      if (!decoded) anchorFail(x.log, "InstructionFallbackNotFound");
      const d = decoded.data;
      switch (decoded.name) {
        case "buy":
          return executeTrade(x, ctx.accounts, {
            kind: "buy",
            first: big(d.amount),
            second: big(d.maxSolCost),
            trackVolume: tuple0(d.trackVolume) === true,
          });
        case "buyExactSolIn":
          return executeTrade(x, ctx.accounts, {
            kind: "buy_exact_sol_in",
            first: big(d.spendableSolIn),
            second: big(d.minTokensOut),
            trackVolume: tuple0(d.trackVolume) === true,
          });
        case "sell":
          return executeTrade(x, ctx.accounts, {
            kind: "sell",
            first: big(d.amount),
            second: big(d.minSolOutput),
            trackVolume: false,
          });
        case "createV2": {
          const fee = tuple0(d.creatorFeeBps);
          return executeCreateV2(
            x,
            ctx.accounts,
            {
              name: d.name as string,
              symbol: d.symbol as string,
              uri: d.uri as string,
              creator: d.creator as PublicKey,
              isMayhemMode: d.isMayhemMode === true,
              isCashbackEnabled: tuple0(d.isCashbackEnabled) as boolean | null,
              creatorFeeBps: fee == null ? null : big(fee),
              isHolderReward: tuple0(d.isHolderReward) as boolean | null,
            },
            sw,
          );
        }
        case "claimCashback":
          return executeClaimCashback(x, ctx.accounts);
        case "initUserVolumeAccumulator":
          return executeInitUva(x, ctx.accounts);
        case "extendAccount":
          return executeExtendAccount(x, ctx.accounts);
        case "migrate":
          if (migrate) return migrate(ctx);
          return anchorFail(x.log, "InstructionFallbackNotFound");
        case "migrateV2":
          if (opts.migrateV2) return opts.migrateV2(ctx);
          return anchorFail(x.log, "InstructionFallbackNotFound");
        default:
          // Instructions the localnet does not emulate (admin, the v2 family).
          x.log(`Program log: Instruction: ${decoded.name} is not emulated by the localnet`);
          return anchorFail(x.log, "InstructionFallbackNotFound");
      }
    },
  };
}
