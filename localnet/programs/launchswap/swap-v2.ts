/**
 * The swap program's `buy_v2`, `buy_exact_quote_in_v2` and `sell_v2` (PUMP_SWAP_TRADE_V2.md): the v1
 * prices and fee amounts, but the protocol fee (minus its buyback part, paid in the trade) and the
 * coin creator fee stay in the pool's quote vault, recorded in `Pool.protocol_fees` /
 * `Pool.creator_fees` and subtracted from the signed `virtual_quote_reserves` so they never count as
 * liquidity. Events as v1 with the zero key as fee recipient and `creator_fee_unclaimed` appended.
 */
import { PublicKey } from "@solana/web3.js";
import type { InstructionContext } from "../types.js";
import { swapEventTail } from "../upgrade/events.js";
import { big, encodeAccount, newUserVolumeAccumulator } from "./codec.js";
import { SWAP_ERR, swapFail } from "./errors.js";
import { emitSwapEvent } from "./events.js";
import { quoteBuyBaseOut, quoteBuyExactQuoteIn, quoteSellBaseIn, type FeeAmounts } from "./fees.js";
import { growPool, storePoolFeeState } from "./pool-buckets.js";
import { createProgramAccount, loadUserVolumeAccumulator, UVA_SIZE } from "./state.js";
import { setupV2, type SwapV2Setup } from "./swap-v2-setup.js";
import { transferTokens } from "./token-io.js";

/** The three v2 trades. */
export type SwapV2Name = "buy_v2" | "buy_exact_quote_in_v2" | "sell_v2";

const LOG_NAMES: Record<SwapV2Name, string> = {
  buy_v2: "BuyV2",
  buy_exact_quote_in_v2: "BuyExactQuoteInV2",
  sell_v2: "SellV2",
};

/** What a v2 trade keeps in the vault: protocol minus buyback, plus the creator fee. */
function keptOf(f: FeeAmounts): { protocol: bigint; creator: bigint } {
  return { protocol: f.protocol - f.buyback, creator: f.creator };
}

function ensureUva(ctx: InstructionContext, s: SwapV2Setup): void {
  const key = s.a.key("user_volume_accumulator");
  if (ctx.ledger.getAccount(key)) return;
  createProgramAccount(
    ctx.ledger,
    s.user,
    key,
    encodeAccount("UserVolumeAccumulator", newUserVolumeAccumulator(s.user), UVA_SIZE),
  );
}

/** Books the kept fees on the pool (buckets up, virtual quote reserves down by the same amount). */
function keepFees(ctx: InstructionContext, s: SwapV2Setup, f: FeeAmounts): bigint {
  const kept = keptOf(f);
  growPool(ctx.ledger, s.poolKey, s.user);
  const creatorFees = s.fees.creatorFees + kept.creator;
  storePoolFeeState(ctx.ledger, s.poolKey, {
    virtualQuoteReserves: s.fees.virtualQuoteReserves - kept.protocol - kept.creator,
    protocolFees: s.fees.protocolFees + kept.protocol,
    creatorFees,
  });
  return creatorFees;
}

function eventFields(ctx: InstructionContext, s: SwapV2Setup, f: FeeAmounts): Record<string, unknown> {
  return {
    timestamp: ctx.ledger.clock().unixTimestamp,
    user_base_token_reserves: s.userBase,
    user_quote_token_reserves: s.userQuote,
    pool_base_token_reserves: s.baseReserve,
    pool_quote_token_reserves: s.quoteReserve,
    lp_fee_basis_points: s.rates.lpBps,
    lp_fee: f.lp,
    protocol_fee_basis_points: s.rates.protocolBps,
    protocol_fee: f.protocol - f.buyback,
    pool: s.poolKey,
    user: s.user,
    user_base_token_account: s.a.key("user_base_token_account"),
    user_quote_token_account: s.a.key("user_quote_token_account"),
    // The zero key: the protocol fee was kept in the pool, not paid out.
    protocol_fee_recipient: PublicKey.default,
    protocol_fee_recipient_token_account: PublicKey.default,
    coin_creator: s.pool.coin_creator,
    coin_creator_fee_basis_points: s.hasCoinCreator ? s.rates.creatorBps : 0n,
    coin_creator_fee: f.creator,
    cashback_fee_basis_points: 0n,
    cashback: 0n,
    buyback_fee_basis_points: s.buybackBps,
    buyback_fee: f.buyback,
    // Pre-trade, like the reserves above: price = vault + this, signed.
    virtual_quote_reserves: s.fees.virtualQuoteReserves,
    can_boost: false,
    base_supply: s.baseSupply,
  };
}

/** Executes a v2 trade. */
export function executeSwapV2(
  ctx: InstructionContext,
  name: SwapV2Name,
  first: bigint,
  second: bigint,
): void {
  ctx.log(`Program log: Instruction: ${LOG_NAMES[name]}`);
  const isBuy = name !== "sell_v2";
  const s = setupV2(ctx, name, isBuy);
  const quote = {
    mint: s.pool.quote_mint,
    decimals: s.quoteDecimals,
    tokenProgram: s.quoteTokenProgram,
  };
  const base = { mint: s.pool.base_mint, decimals: s.baseDecimals, tokenProgram: s.baseTokenProgram };
  const userBase = s.a.key("user_base_token_account");
  const userQuote = s.a.key("user_quote_token_account");
  const args = [s.baseReserve, s.effQ, s.rates, s.hasCoinCreator, s.buybackBps] as const;
  if (!isBuy) {
    if (first === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    const q = quoteSellBaseIn(first, ...args);
    if (q.quoteOut === 0n) swapFail(SWAP_ERR.ZeroQuoteAmount);
    if (q.userOut < 0n || q.userOut < second) swapFail(SWAP_ERR.ExceededSlippage);
    ensureUva(ctx, s);
    transferTokens(ctx.ledger, {
      ...base,
      from: userBase,
      to: s.pool.pool_base_token_account,
      authority: s.user,
      amount: first,
    });
    const vault = { ...quote, from: s.pool.pool_quote_token_account, authority: s.poolKey };
    transferTokens(ctx.ledger, { ...vault, to: userQuote, amount: q.userOut });
    transferTokens(ctx.ledger, { ...vault, to: s.buyback, amount: q.fees.buyback });
    const unclaimed = keepFees(ctx, s, q.fees);
    emitSwapEvent(
      ctx.log,
      "SellEvent",
      {
        ...eventFields(ctx, s, q.fees),
        base_amount_in: first,
        min_quote_amount_out: second,
        quote_amount_out: q.quoteOut,
        quote_amount_out_without_lp_fee: q.quoteOut - q.fees.lp,
        user_quote_amount_out: q.userOut,
      },
      swapEventTail(unclaimed),
    );
    return;
  }
  let q;
  if (name === "buy_v2") {
    if (first === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    if (first >= s.baseReserve) swapFail(SWAP_ERR.BuyMoreBaseAmountThanPoolReserves);
    q = quoteBuyBaseOut(first, ...args);
    if (q.total > second) swapFail(SWAP_ERR.ExceededSlippage);
  } else {
    if (first === 0n) swapFail(SWAP_ERR.ZeroQuoteAmount);
    if (second === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    const r = quoteBuyExactQuoteIn(first, ...args);
    if (!r) swapFail(SWAP_ERR.BuyNotEnoughQuoteTokensToCoverFees);
    q = r;
    if (q.baseOut === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    if (q.baseOut < second) swapFail(SWAP_ERR.BuySlippageBelowMinBaseAmountOut);
    if (q.baseOut >= s.baseReserve) swapFail(SWAP_ERR.BuyMoreBaseAmountThanPoolReserves);
  }
  ensureUva(ctx, s);
  const kept = keptOf(q.fees);
  const user = { ...quote, from: userQuote, authority: s.user };
  transferTokens(ctx.ledger, {
    ...user,
    to: s.pool.pool_quote_token_account,
    amount: q.quoteIn + q.fees.lp + kept.protocol + kept.creator,
  });
  transferTokens(ctx.ledger, { ...user, to: s.buyback, amount: q.fees.buyback });
  transferTokens(ctx.ledger, {
    ...base,
    from: s.pool.pool_base_token_account,
    to: userBase,
    authority: s.poolKey,
    amount: q.baseOut,
  });
  const unclaimed = keepFees(ctx, s, q.fees);
  const uva = loadUserVolumeAccumulator(ctx.ledger, s.a.key("user_volume_accumulator"))!;
  emitSwapEvent(
    ctx.log,
    "BuyEvent",
    {
      ...eventFields(ctx, s, q.fees),
      base_amount_out: q.baseOut,
      max_quote_amount_in: name === "buy_v2" ? second : first,
      quote_amount_in: q.quoteIn,
      quote_amount_in_with_lp_fee: q.quoteIn + q.fees.lp,
      user_quote_amount_in: name === "buy_v2" ? q.total : q.quoteIn,
      track_volume: false,
      total_unclaimed_tokens: big(uva.total_unclaimed_tokens),
      total_claimed_tokens: big(uva.total_claimed_tokens),
      current_sol_volume: big(uva.current_sol_volume),
      last_update_timestamp: big(uva.last_update_timestamp),
      min_base_amount_out: name === "buy_v2" ? first : second,
      ix_name: name,
    },
    swapEventTail(unclaimed),
  );
}
