/**
 * Instructions of a create-led bundle: the create (with its dev buy) for the first leg's wallet, then each
 * buyer's buy_exact_sol_in quoted against the curve model advanced by the dev buy and every earlier buyer.
 * No chain access: the coin does not exist yet, so everything comes from Global / FeeConfig.
 */
import { TOKEN_2022_ID } from "../../launch/programs.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { Random } from "../../launch/fee-recipients.js";
import { buildCurveBuyExactSolIn } from "../../launch/trade-instructions.js";
import { type BundleBuyLeg, type CreateLedBuyQuote, quoteCreateLedBuys } from "./shape.js";
import type { CreateFields } from "../create/request.js";
import { type CreatePlan, type LaunchConfig, createdCoinUsesV3, planCreate } from "../create/plan.js";
import { buildCurveBuyExactQuoteInV3 } from "../../launch/v3-instructions.js";

/** The planned create-led bundle: one instruction list per leg, in leg order. */
export interface CreateLedPlan {
  create: CreatePlan;
  /** Quotes of the buyer legs (leg i + 1). */
  buys: CreateLedBuyQuote[];
  /** Instructions per leg; index 0 is the create. */
  legInstructions: TransactionInstruction[][];
}

/** Quotes and builds every leg of a create-led bundle; `wallets[i]` signs leg i (wallets[0] is the creator). */
export async function planCreateLedBundle(args: {
  config: LaunchConfig;
  create: CreateFields;
  buys: readonly Pick<BundleBuyLeg, "amount" | "slippageBps">[];
  wallets: readonly PublicKey[];
  mint: PublicKey;
  random?: Random;
}): Promise<CreateLedPlan> {
  const { config, create, mint, wallets } = args;
  const creator = wallets[0];
  if (creator === undefined || wallets.length !== args.buys.length + 1) {
    throw new RangeError("one wallet per bundle leg is required");
  }
  const random = args.random !== undefined ? { random: args.random } : {};
  const plan = await planCreate({ config, fields: create, creator, mint, ...random });
  const quotes = quoteCreateLedBuys(plan.curveAfter, args.buys, plan.feesAt);
  const legInstructions: TransactionInstruction[][] = [plan.instructions];
  const v3 = createdCoinUsesV3(config, create.cashback);
  for (const [i, quote] of quotes.entries()) {
    const user = wallets[i + 1]!; // length checked above
    if (v3) {
      // The buyer's account cannot exist before the mint does: v3 needs it, so it is created first.
      legInstructions.push(
        buildCurveBuyExactQuoteInV3({
          global: config.global,
          mint,
          user,
          tokenProgram: TOKEN_2022_ID,
          spendable: quote.lamports,
          minTokensOut: quote.minTokensOut,
          createAta: true,
          ...random,
        }),
      );
      continue;
    }
    legInstructions.push(
      await buildCurveBuyExactSolIn({
        global: config.global,
        // The curve this bundle creates: its creator is the create leg's wallet, mayhem as the create asks.
        curve: { creator, isMayhemMode: create.mayhemMode },
        mint,
        user,
        tokenProgram: TOKEN_2022_ID,
        spendableLamports: quote.lamports,
        minTokensOut: quote.minTokensOut,
        // The buyer's account cannot exist before the mint does; idempotent, so a repeated buyer is fine.
        createAta: true,
        ...random,
      }),
    );
  }
  return { create: plan, buys: quotes, legInstructions };
}
