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

const big = (v: unknown): bigint => BigInt((v as BN).toString());
/** OptionBool / OptionU64 are IDL tuple structs: `{ 0: value }`. */
const tuple0 = (v: unknown): unknown => (v == null ? null : (v as Record<string, unknown>)["0"]);

/**
 * Builds the emulated program (switches fixed at genesis). `migrate` executes the `migrate`
 * instruction; it is passed in because it writes the swap program's pool (launchswap/migrate.ts).
 */
export function buildLaunchProgram(
  sw: CreateSwitches,
  migrate?: (ctx: InstructionContext) => void,
): EmulatedProgram {
  // null connection: decoding never touches the network (offline program, as the SDK does).
  const coder = pumpInstructionCoder;
  return {
    programId: LAUNCH_PROGRAM_ID,
    execute(ctx: InstructionContext): void {
      const x: Exec = { ledger: ctx.ledger, log: (l) => ctx.log(l), programId: ctx.programId };
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
        default:
          // Instructions the localnet does not emulate (admin, the v2 family).
          x.log(`Program log: Instruction: ${decoded.name} is not emulated by the localnet`);
          return anchorFail(x.log, "InstructionFallbackNotFound");
      }
    },
  };
}
