/** The worst case of the October 2026 instructions: v3 curve and v2 pool trades are bounded like the legacy ones. */
import { describe, expect, it } from "vitest";
import { setComputeUnitLimit, setComputeUnitPrice } from "../../../../src/chain/budget-instructions.js";
import {
  ATA_RENT_BOUND,
  PROGRAM_ACCOUNT_RENT_BOUND,
  transactionWorstCase,
} from "../../../../src/domain/execution/worst-case-spend.js";
import type { LaunchGlobal, PoolState, SwapGlobalConfig } from "../../../../src/launch/state.js";
import {
  buildCurveBuyExactQuoteInV3,
  buildCurveBuyV3,
  buildCurveSellV3,
} from "../../../../src/launch/v3-instructions.js";
import { buildSwapBuyV2, buildSwapSellV2 } from "../../../../src/launch/swap-v2-instructions.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { key } from "../../../helpers/fixtures.js";

const user = key(1);
const mint = key(3);
const global = { buybackFeeRecipients: [key(6)] } as unknown as LaunchGlobal;
const globalConfig = { buybackFeeRecipients: [key(6)] } as unknown as SwapGlobalConfig;
const pool = {
  baseMint: mint,
  quoteMint: NATIVE_MINT,
  poolBaseTokenAccount: key(8),
  poolQuoteTokenAccount: key(9),
} as unknown as PoolState;
const v3 = { global, mint, user, tokenProgram: TOKEN_2022_PROGRAM_ID };
const v2 = { globalConfig, poolAddress: key(7), pool, user, tokenProgram: TOKEN_2022_PROGRAM_ID };
const budget = [setComputeUnitLimit(100_000), setComputeUnitPrice(1_000n)];
const worst = (ops: ReturnType<typeof buildCurveSellV3>) =>
  transactionWorstCase({ instructions: [...budget, ...ops], signatureCount: 1 });

describe("worst case of v3 / v2 trades", () => {
  it("buy_exact_quote_in_v3: its spendable amount and the buyer's ATA", () => {
    const w = worst(
      buildCurveBuyExactQuoteInV3({ ...v3, spendable: 50_000_000n, minTokensOut: 1n, createAta: true }),
    );
    expect(w).toMatchObject({ amount: 50_000_000n, rent: ATA_RENT_BOUND, unbounded: false });
  });
  it("buy_v3: its max_sol_cost", () => {
    const w = worst(buildCurveBuyV3({ ...v3, amount: 10n, maxSolCost: 7_000n, createAta: false }));
    expect(w).toMatchObject({ amount: 7_000n, unbounded: false });
  });
  it("sell_v3: no amount, the curve's growth as rent", () => {
    const w = worst(buildCurveSellV3({ ...v3, amount: 10n, minSolOutput: 1n }));
    expect(w).toMatchObject({ amount: 0n, rent: PROGRAM_ACCOUNT_RENT_BOUND, unbounded: false });
  });
  it("buy_v2: the wrap and max_quote_amount_in are the same SOL, counted once", () => {
    const w = worst(buildSwapBuyV2({ ...v2, baseOut: 5n, maxQuoteIn: 80_000_000n }));
    expect(w.unbounded).toBe(false);
    expect(w.amount).toBe(80_000_000n);
  });
  it("sell_v2: bounded", () => {
    const w = worst(buildSwapSellV2({ ...v2, baseIn: 5n, minQuoteOut: 1n }));
    expect(w).toMatchObject({ amount: 0n, unbounded: false });
  });
  it("an unknown instruction still makes the transaction unbounded", () => {
    const ix = buildCurveSellV3({ ...v3, amount: 1n, minSolOutput: 1n })[0]!;
    ix.data = Buffer.concat([Buffer.alloc(8, 0xee), ix.data.subarray(8)]);
    expect(worst([ix]).unbounded).toBe(true);
  });
});
