/**
 * Token creation instructions: create_v2 (Token-2022 mint, bonding curve) alone or with the creator's
 * first buy in the same transaction. The mint keypair is the caller's (server-generated) and must sign.
 */
import BN from "bn.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "./spl-token.js";
import type { Random } from "./fee-recipients.js";
import { launchProgram } from "./programs-offline.js";
import { launchSdk } from "./sdk.js";
import type { LaunchGlobal } from "./state.js";
import { buildCurveBuyExactSolIn } from "./trade-instructions.js";
import { buildCurveBuyExactQuoteInV3 } from "./v3-instructions.js";

/** What a create_v2 carries; `creator` also signs and pays. */
export interface CreateArgs {
  mint: PublicKey;
  name: string;
  symbol: string;
  uri: string;
  creator: PublicKey;
  mayhem: boolean;
  cashback: boolean;
}

/** create_v2 for a SOL-quoted coin. */
export async function buildCreateV2(args: CreateArgs): Promise<TransactionInstruction> {
  const { mint, name, symbol, uri, creator, mayhem } = args;
  if (!args.cashback) {
    return launchSdk.PUMP_SDK.createV2Instruction({
      mint,
      name,
      symbol,
      uri,
      creator,
      user: creator,
      mayhemMode: mayhem,
    });
  }
  // The SDK refuses cashback creates (the program answers 6082 CashbackDeprecated). We encode the same
  // instruction from the IDL so the program, not the service, decides: a chain that still allows
  // cashback coins creates one, today's program rejects it exactly as it would any client's.
  return launchProgram.methods
    .createV2(name, symbol, uri, creator, mayhem, [true], [new BN(0)], [false])
    .accountsPartial({
      mint,
      user: creator,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mayhemProgramId: launchSdk.MAYHEM_PROGRAM_ID,
      globalParams: launchSdk.getGlobalParamsPda(),
      solVault: launchSdk.getSolVaultPda(),
      mayhemState: launchSdk.getMayhemStatePda(mint),
      mayhemTokenVault: launchSdk.getTokenVaultPda(mint),
    })
    .instruction();
}

/**
 * create_v2, the creator's Token-2022 ATA (idempotent) and buy_exact_sol_in against the fresh curve,
 * for one atomic transaction. Quote `minTokensOut` against the fresh curve with slippage applied.
 */
export async function buildCreateV2AndBuyExactSolIn(
  args: CreateArgs & {
    global: LaunchGlobal;
    spendableLamports: bigint;
    minTokensOut: bigint;
    random?: Random;
    /** Send the dev buy as buy_exact_quote_in_v3 (the 2026-10 programs; never for a cashback coin). */
    v3?: boolean;
  },
): Promise<TransactionInstruction[]> {
  const create = await buildCreateV2(args);
  if (args.v3 === true) {
    const buy = buildCurveBuyExactQuoteInV3({
      global: args.global,
      mint: args.mint,
      user: args.creator,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      spendable: args.spendableLamports,
      minTokensOut: args.minTokensOut,
      createAta: true,
      ...(args.random !== undefined ? { random: args.random } : {}),
    });
    return [create, ...buy];
  }
  const buy = await buildCurveBuyExactSolIn({
    global: args.global,
    // The fresh curve's creator is the create argument, its mayhem flag the create flag.
    curve: { creator: args.creator, isMayhemMode: args.mayhem },
    mint: args.mint,
    user: args.creator,
    tokenProgram: TOKEN_2022_PROGRAM_ID,
    spendableLamports: args.spendableLamports,
    minTokensOut: args.minTokensOut,
    createAta: true,
    random: args.random,
  });
  return [create, ...buy];
}
