/** The emulated swap program: decodes each instruction with the IDL coder and dispatches it. */
import type BN from "bn.js";
import type { EmulatedProgram, InstructionContext } from "../types.js";
import { ProgramFailure } from "../types.js";
import { ANCHOR, fail } from "./account-check.js";
import { SWAP_PROGRAM_ID } from "./addresses.js";
import { executeClaimCashback, executeExtendAccount } from "./cashback.js";
import { SWAP_CODER, big } from "./codec.js";
import { executeBuy, executeSell } from "./swap.js";
import { DEFAULT_PROGRAM_GENERATION, hasOctoberUpgrade, type ProgramGeneration } from "../generation.js";
import { decodeUpgradeInstruction, type DecodedUpgradeInstruction } from "../upgrade/instructions.js";
import { executeSwapV2 } from "./swap-v2.js";
import { executePoolSweep } from "./sweep.js";

const LOG_NAMES: Record<string, string> = {
  buy: "Buy",
  buy_exact_quote_in: "BuyExactQuoteIn",
  sell: "Sell",
  claim_cashback: "ClaimCashback",
  extend_account: "ExtendAccount",
};

/** Runs an October 2026 instruction. */
function dispatchUpgrade(ctx: InstructionContext, d: DecodedUpgradeInstruction): void {
  const name = d.spec.name;
  if (name === "sweep_protocol_fee") return executePoolSweep(ctx, "protocol");
  if (name === "sweep_creator_fee") return executePoolSweep(ctx, "creator");
  if (name !== "buy_v2" && name !== "buy_exact_quote_in_v2" && name !== "sell_v2")
    return fail(ANCHOR.InstructionFallbackNotFound, "InstructionFallbackNotFound");
  const [first, second] = d.spec.args.map((a) => d.args[a.name] as bigint);
  return executeSwapV2(ctx, name, first!, second!);
}

/** Executes one swap-program instruction; its own failures are logged as anchor-lang logs them. */
function executeSwapInstruction(ctx: InstructionContext, upgraded: boolean): void {
  try {
    if (upgraded) {
      const u = decodeUpgradeInstruction("launchswap", ctx.data);
      if (u === "malformed") fail(ANCHOR.InstructionDidNotDeserialize, "InstructionDidNotDeserialize");
      if (u !== "unknown") return dispatchUpgrade(ctx, u);
    }
    dispatch(ctx);
  } catch (e) {
    // Our failures carry anchor-lang's log text; failures of invoked programs were logged by the ledger.
    if (e instanceof ProgramFailure && e.message.startsWith("AnchorError"))
      ctx.log(`Program log: ${e.message}`);
    throw e;
  }
}

function dispatch(ctx: InstructionContext): void {
  if (ctx.data.length < 8) fail(ANCHOR.InstructionFallbackNotFound, "InstructionFallbackNotFound");
  let decoded: { name: string; data: Record<string, BN | { 0: boolean }> } | null;
  try {
    decoded = SWAP_CODER.instruction.decode(Buffer.from(ctx.data)) as typeof decoded;
  } catch {
    fail(ANCHOR.InstructionDidNotDeserialize, "InstructionDidNotDeserialize");
  }
  if (!decoded) fail(ANCHOR.InstructionFallbackNotFound, "InstructionFallbackNotFound");
  const logName = LOG_NAMES[decoded.name];
  if (!logName) fail(ANCHOR.InstructionFallbackNotFound, "InstructionFallbackNotFound");
  ctx.log(`Program log: Instruction: ${logName}`);
  const d = decoded.data as Record<string, BN>;
  const track = (decoded.data["track_volume"] as { 0: boolean } | undefined)?.[0] ?? false;
  switch (decoded.name) {
    case "buy":
      return executeBuy(ctx, "buy", big(d["base_amount_out"]!), big(d["max_quote_amount_in"]!), track);
    case "buy_exact_quote_in":
      return executeBuy(
        ctx,
        "buy_exact_quote_in",
        big(d["spendable_quote_in"]!),
        big(d["min_base_amount_out"]!),
        track,
      );
    case "sell":
      return executeSell(ctx, big(d["base_amount_in"]!), big(d["min_quote_amount_out"]!));
    case "claim_cashback":
      return executeClaimCashback(ctx);
    default:
      return executeExtendAccount(ctx);
  }
}

/**
 * The swap program as the ledger registers it. On the 2026-10 generation the October 2026
 * instructions (v2 trades, sweeps) exist; on 2026-09 they fail like any unknown instruction.
 */
export function createSwapProgram(
  generation: ProgramGeneration = DEFAULT_PROGRAM_GENERATION,
): EmulatedProgram {
  const upgraded = hasOctoberUpgrade(generation);
  return { programId: SWAP_PROGRAM_ID, execute: (ctx) => executeSwapInstruction(ctx, upgraded) };
}
