/**
 * From a validated create model to the instructions of its transaction: create_v2 alone, or create_v2 with the
 * creator's first buy quoted against the fresh curve. Shared by `POST /v1/laser/create` and a bundle's create
 * leg; no chain access (Global and FeeConfig come from the chain caches, the mint key from the caller).
 */
import type { ProgramGeneration } from "../../launch/generation.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { buildCreateV2, buildCreateV2AndBuyExactSolIn } from "../../launch/create-instructions.js";
import type { Random } from "../../launch/fee-recipients.js";
import { freshCurve, freshCurveFeeInputs } from "../../launch/quote-inputs.js";
import type { LaunchFeeConfig, LaunchGlobal } from "../../launch/state.js";
import { type CreateFields, type InitialBuy, quoteInitialBuy } from "./request.js";
import { computeCurveFeesBps, type CurveFeesBps, type CurveState } from "../../launch/curve-quote.js";

/** The launch configuration a create is quoted and built against (decoded from the chain caches). */
export interface LaunchConfig {
  global: LaunchGlobal;
  feeConfig: LaunchFeeConfig | null;
  /** The live program generation (absent: 2026-09, legacy buys). */
  generation?: ProgramGeneration;
}

/** Whether a created coin's buys go out as v3 (2026-10 programs; cashback coins refuse v3). */
export function createdCoinUsesV3(config: LaunchConfig, cashback: boolean): boolean {
  return config.generation === "2026-10" && !cashback;
}

/** The quoted developer buy: the request's amount and slippage, the tokens quoted and the floor sent. */
export interface PlannedInitialBuy extends InitialBuy {
  tokensOut: bigint;
  minTokensOut: bigint;
}

/** What a create transaction carries, and the curve it leaves behind. */
export interface CreatePlan {
  instructions: TransactionInstruction[];
  initialBuy: PlannedInitialBuy | null;
  /** The curve after create_v2 and the dev buy: later buyers of a create-led bundle are quoted from here. */
  curveAfter: CurveState;
  /** Fee rates of a buy on a curve of this coin, as a function of the curve (the market-cap tier moves). */
  feesAt: (curve: CurveState) => CurveFeesBps;
}

/** Fee rates of buys on a coin being created (creator = the create's creator, mayhem as asked). */
export function createdCoinFees(config: LaunchConfig, mayhem: boolean): (curve: CurveState) => CurveFeesBps {
  return (curve) =>
    computeCurveFeesBps(
      freshCurveFeeInputs({ global: config.global, feeConfig: config.feeConfig, mayhem, curve }),
    );
}

/** Quotes the dev buy (if any) against the fresh curve and builds the create transaction's instructions. */
export async function planCreate(args: {
  config: LaunchConfig;
  fields: CreateFields;
  creator: PublicKey;
  mint: PublicKey;
  random?: Random;
}): Promise<CreatePlan> {
  const { config, fields, creator, mint } = args;
  const fresh = freshCurve(config.global);
  const feesAt = createdCoinFees(config, fields.mayhemMode);
  const createArgs = {
    mint,
    name: fields.name,
    symbol: fields.symbol,
    uri: fields.uri,
    creator,
    mayhem: fields.mayhemMode,
    cashback: fields.cashback,
  };
  if (fields.initialBuy === undefined) {
    return { instructions: [await buildCreateV2(createArgs)], initialBuy: null, curveAfter: fresh, feesAt };
  }
  const quote = quoteInitialBuy(fresh, fields.initialBuy, feesAt(fresh));
  const instructions = await buildCreateV2AndBuyExactSolIn({
    ...createArgs,
    global: config.global,
    spendableLamports: fields.initialBuy.lamports,
    minTokensOut: quote.minTokensOut,
    v3: createdCoinUsesV3(config, fields.cashback),
    ...(args.random !== undefined ? { random: args.random } : {}),
  });
  return {
    instructions,
    initialBuy: { ...fields.initialBuy, tokensOut: quote.tokensOut, minTokensOut: quote.minTokensOut },
    curveAfter: quote.curveAfter,
    feesAt,
  };
}
