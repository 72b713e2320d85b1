/** The swap program's trading instructions: buy, buy_exact_quote_in and sell. */
import { PublicKey } from "@solana/web3.js";
import type { InstructionContext, LedgerAccess } from "../types.js";
import { ANCHOR, checkAccounts, fail, type CheckedAccounts } from "./account-check.js";
import { NATIVE_MINT, ata, poolAuthorityPda, poolV2Pda, swapUserVolumeAccumulatorPda } from "./addresses.js";
import {
  big,
  bn,
  encodeAccount,
  newUserVolumeAccumulator,
  type GlobalConfigData,
  type PoolData,
} from "./codec.js";
import { feeRates, quoteBuyBaseOut, quoteBuyExactQuoteIn, quoteSellBaseIn, type FeeAmounts } from "./fees.js";
import {
  UVA_SIZE,
  createProgramAccount,
  globalRates,
  loadFeeSchedule,
  loadGlobalConfig,
  loadPool,
  loadUserVolumeAccumulator,
  storeUserVolumeAccumulator,
} from "./state.js";
import { SWAP_ERR, swapFail } from "./errors.js";
import { ensureAta, readTokenAccount, transferTokens } from "./token-io.js";
import { emitSwapEvent } from "./events.js";
import { checkTradeMints } from "./trade-checks.js";

const DEFAULT_KEY = PublicKey.default;

/** Everything a swap instruction resolved before moving funds. */
interface SwapSetup {
  acc: CheckedAccounts;
  pool: PoolData;
  gc: GlobalConfigData;
  user: PublicKey;
  baseDecimals: number;
  quoteDecimals: number;
  baseTokenProgram: PublicKey;
  quoteTokenProgram: PublicKey;
  baseReserve: bigint;
  effQ: bigint;
  hasCoinCreator: boolean;
  buybackBps: bigint;
  buyback: { recipient: PublicKey; tokenAccount: PublicKey };
  /** Cashback destination when the pool is a cashback coin and the accounts were passed. */
  cashback: { uva: PublicKey; uvaAta: PublicKey } | null;
  rates: ReturnType<typeof feeRates>;
  baseSupply: bigint;
  /** Pre-trade balances for the event. */
  userBase: bigint;
  userQuote: bigint;
  quoteReserve: bigint;
}

function poolField(pool: PoolData): (account: string, field: string) => PublicKey {
  return (account, field) => {
    if (account !== "pool") throw new Error(`unexpected seed account ${account}`);
    const v = (pool as unknown as Record<string, unknown>)[field];
    if (!(v instanceof PublicKey)) throw new Error(`pool.${field} is not a key`);
    return v;
  };
}

function setup(ctx: InstructionContext, ixName: "buy" | "buy_exact_quote_in" | "sell"): SwapSetup {
  const { ledger } = ctx;
  const poolKey = ctx.accounts[0]?.pubkey;
  if (!poolKey) fail(ANCHOR.AccountNotEnoughKeys, "AccountNotEnoughKeys");
  const pool = loadPool(ledger, poolKey);
  const acc = checkAccounts(ixName, ctx.accounts, ctx.programId, poolField(pool));
  const gc = loadGlobalConfig(ledger, acc.key("global_config"));
  const schedule = loadFeeSchedule(ledger, acc.key("fee_config"));
  const isBuy = ixName !== "sell";
  if (isBuy && (gc.disable_flags & 0b1000) !== 0) swapFail(SWAP_ERR.DisabledBuy);
  if (!isBuy && (gc.disable_flags & 0b10000) !== 0) swapFail(SWAP_ERR.DisabledSell);

  const { baseMint, quoteMint, baseTokenProgram, quoteTokenProgram, userBase, userQuote } = checkTradeMints(
    ledger,
    pool,
    acc,
  );

  const recipients = pool.is_mayhem_mode
    ? [gc.reserved_fee_recipient, ...gc.reserved_fee_recipients]
    : gc.protocol_fee_recipients;
  const recipient = acc.key("protocol_fee_recipient");
  if (recipient.equals(DEFAULT_KEY) || !recipients.some((r) => r.equals(recipient)))
    swapFail(SWAP_ERR.InvalidProtocolFeeRecipient);

  // Remaining accounts (reference A.4/A.5), read from the end: buyback recipient and its quote
  // ATA last, pool_v2 before them iff the pool has a coin creator, cashback accounts first.
  const rem = acc.remaining;
  const hasCoinCreator = !pool.coin_creator.equals(DEFAULT_KEY);
  const tail = 2 + (hasCoinCreator ? 1 : 0);
  if (rem.length < tail) swapFail(SWAP_ERR.BuybackFeeRecipientMissing);
  const buybackRecipient = rem[rem.length - 2]!.pubkey;
  const buybackAta = rem[rem.length - 1]!;
  if (!gc.buyback_fee_recipients.some((r) => r.equals(buybackRecipient)))
    swapFail(SWAP_ERR.BuybackFeeRecipientNotAuthorized);
  if (
    !buybackAta.pubkey.equals(ata(buybackRecipient, pool.quote_mint, quoteTokenProgram)) ||
    !buybackAta.isWritable
  )
    swapFail(SWAP_ERR.BuybackFeeRecipientNotAuthorized);
  if (hasCoinCreator && !rem[rem.length - 3]!.pubkey.equals(poolV2Pda(pool.base_mint)))
    swapFail(SWAP_ERR.InvalidPoolV2);
  const extras = rem.slice(0, rem.length - tail);
  const user = acc.key("user");
  let cashback: SwapSetup["cashback"] = null;
  if (pool.is_cashback_coin && extras.length > 0) {
    const uva = swapUserVolumeAccumulatorPda(user);
    const uvaAta = ata(uva, pool.quote_mint, quoteTokenProgram);
    if (!extras[0]!.pubkey.equals(uvaAta) || !extras[0]!.isWritable)
      swapFail(SWAP_ERR.InvalidCashbackAccumulatorAta);
    if (!isBuy && (extras.length < 2 || !extras[1]!.pubkey.equals(uva) || !extras[1]!.isWritable))
      swapFail(SWAP_ERR.InvalidCashbackAccumulator);
    cashback = { uva, uvaAta };
  }

  const baseReserve = readTokenAccount(ledger, pool.pool_base_token_account)?.amount ?? 0n;
  const quoteReserve = readTokenAccount(ledger, pool.pool_quote_token_account)?.amount ?? 0n;
  const effQ = quoteReserve + big(pool.virtual_quote_reserves);
  if (baseReserve === 0n || effQ <= 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
  const quoteKind = [DEFAULT_KEY, NATIVE_MINT].some((m) => m.equals(pool.quote_mint))
    ? "sol"
    : pool.quote_mint.toBase58() === "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
      ? "stable"
      : "other";
  const rates = feeRates({
    schedule,
    globalRates: globalRates(gc),
    creatorFeeConfigurable: gc.creator_fee_configurable,
    poolCreatorFeeBps: big(pool.creator_fee_bps),
    isCanonical: pool.creator.equals(poolAuthorityPda(pool.base_mint)),
    quoteKind,
    isMayhemMode: pool.is_mayhem_mode,
    baseMintSupply: baseMint.supply,
    baseReserve,
    effectiveQuoteReserve: effQ,
  });
  return {
    acc,
    pool,
    gc,
    user,
    baseDecimals: baseMint.decimals,
    quoteDecimals: quoteMint.decimals,
    baseTokenProgram,
    quoteTokenProgram,
    baseReserve,
    effQ,
    hasCoinCreator,
    buybackBps: big(gc.buyback_basis_points),
    buyback: { recipient: buybackRecipient, tokenAccount: buybackAta.pubkey },
    cashback,
    rates,
    baseSupply: baseMint.supply,
    userBase,
    userQuote,
    quoteReserve,
  };
}

/** Event fields shared by BuyEvent and SellEvent. */
function commonEventFields(ctx: InstructionContext, s: SwapSetup, fees: FeeAmounts): Record<string, unknown> {
  const cashback = s.cashback !== null;
  return {
    timestamp: ctx.ledger.clock().unixTimestamp,
    user_base_token_reserves: s.userBase,
    user_quote_token_reserves: s.userQuote,
    pool_base_token_reserves: s.baseReserve,
    pool_quote_token_reserves: s.quoteReserve,
    lp_fee_basis_points: s.rates.lpBps,
    lp_fee: fees.lp,
    protocol_fee_basis_points: s.rates.protocolBps,
    protocol_fee: fees.protocol - fees.buyback,
    pool: s.acc.key("pool"),
    user: s.user,
    user_base_token_account: s.acc.key("user_base_token_account"),
    user_quote_token_account: s.acc.key("user_quote_token_account"),
    protocol_fee_recipient: s.acc.key("protocol_fee_recipient"),
    protocol_fee_recipient_token_account: s.acc.key("protocol_fee_recipient_token_account"),
    coin_creator: s.pool.coin_creator,
    coin_creator_fee_basis_points: s.hasCoinCreator && !cashback ? s.rates.creatorBps : 0n,
    coin_creator_fee: cashback ? 0n : fees.creator,
    cashback_fee_basis_points: cashback && s.hasCoinCreator ? s.rates.creatorBps : 0n,
    cashback: cashback ? fees.creator : 0n,
    buyback_fee_basis_points: s.buybackBps,
    buyback_fee: fees.buyback,
    virtual_quote_reserves: big(s.pool.virtual_quote_reserves),
    can_boost: false,
    base_supply: s.baseSupply,
  };
}

/** Anchor init_if_needed of the fee destinations (payer: the user). */
function initFeeAccounts(ledger: LedgerAccess, s: SwapSetup): void {
  const q = s.pool.quote_mint;
  ensureAta(ledger, s.user, s.acc.key("protocol_fee_recipient"), q, s.quoteTokenProgram);
  ensureAta(ledger, s.user, s.acc.key("coin_creator_vault_authority"), q, s.quoteTokenProgram);
  ensureAta(ledger, s.user, s.buyback.recipient, q, s.quoteTokenProgram);
}

/** Creates the user's swap volume accumulator when missing (rent paid by the user). */
function ensureUserVolumeAccumulator(ledger: LedgerAccess, user: PublicKey, key: PublicKey): void {
  if (ledger.getAccount(key)) return;
  createProgramAccount(
    ledger,
    user,
    key,
    encodeAccount("UserVolumeAccumulator", newUserVolumeAccumulator(user), UVA_SIZE),
  );
}

/** Pays fees from `from` (signed by `authority`) to protocol, buyback and creator/cashback. */
function payFees(
  ledger: LedgerAccess,
  s: SwapSetup,
  fees: FeeAmounts,
  from: PublicKey,
  authority: PublicKey,
): void {
  const q = {
    mint: s.pool.quote_mint,
    decimals: s.quoteDecimals,
    tokenProgram: s.quoteTokenProgram,
    authority,
    from,
  };
  transferTokens(ledger, {
    ...q,
    to: s.acc.key("protocol_fee_recipient_token_account"),
    amount: fees.protocol - fees.buyback,
  });
  transferTokens(ledger, { ...q, to: s.buyback.tokenAccount, amount: fees.buyback });
  if (fees.creator === 0n) return;
  if (s.cashback) {
    ensureUserVolumeAccumulator(ledger, s.user, s.cashback.uva);
    ensureAta(ledger, s.user, s.cashback.uva, s.pool.quote_mint, s.quoteTokenProgram);
    transferTokens(ledger, { ...q, to: s.cashback.uvaAta, amount: fees.creator });
    const uva = loadUserVolumeAccumulator(ledger, s.cashback.uva)!;
    uva.cashback_earned = bn(big(uva.cashback_earned) + fees.creator);
    storeUserVolumeAccumulator(ledger, s.cashback.uva, uva);
  } else {
    transferTokens(ledger, { ...q, to: s.acc.key("coin_creator_vault_ata"), amount: fees.creator });
  }
}

/** Executes `buy(base_amount_out, max_quote_amount_in)` or `buy_exact_quote_in(spendable, min_base_out)`. */
export function executeBuy(
  ctx: InstructionContext,
  ixName: "buy" | "buy_exact_quote_in",
  first: bigint,
  second: bigint,
  trackVolume: boolean,
): void {
  const { ledger } = ctx;
  const s = setup(ctx, ixName);
  let q;
  if (ixName === "buy") {
    if (first === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    if (first >= s.baseReserve) swapFail(SWAP_ERR.BuyMoreBaseAmountThanPoolReserves);
    q = quoteBuyBaseOut(first, s.baseReserve, s.effQ, s.rates, s.hasCoinCreator, s.buybackBps);
    if (q.total > second) swapFail(SWAP_ERR.ExceededSlippage);
  } else {
    if (first === 0n) swapFail(SWAP_ERR.ZeroQuoteAmount);
    const r = quoteBuyExactQuoteIn(first, s.baseReserve, s.effQ, s.rates, s.hasCoinCreator, s.buybackBps);
    if (!r) swapFail(SWAP_ERR.BuyNotEnoughQuoteTokensToCoverFees);
    q = r;
    if (q.baseOut === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
    if (q.baseOut < second) swapFail(SWAP_ERR.BuySlippageBelowMinBaseAmountOut);
    if (q.baseOut >= s.baseReserve) swapFail(SWAP_ERR.BuyMoreBaseAmountThanPoolReserves);
  }
  ensureUserVolumeAccumulator(ledger, s.user, s.acc.key("user_volume_accumulator"));
  initFeeAccounts(ledger, s);
  const userQuote = s.acc.key("user_quote_token_account");
  transferTokens(ledger, {
    from: userQuote,
    to: s.pool.pool_quote_token_account,
    mint: s.pool.quote_mint,
    authority: s.user,
    amount: q.quoteIn + q.fees.lp,
    decimals: s.quoteDecimals,
    tokenProgram: s.quoteTokenProgram,
  });
  payFees(ledger, s, q.fees, userQuote, s.user);
  transferTokens(ledger, {
    from: s.pool.pool_base_token_account,
    to: s.acc.key("user_base_token_account"),
    mint: s.pool.base_mint,
    authority: s.acc.key("pool"),
    amount: q.baseOut,
    decimals: s.baseDecimals,
    tokenProgram: s.baseTokenProgram,
  });
  const uva = loadUserVolumeAccumulator(ledger, s.acc.key("user_volume_accumulator"))!;
  emitSwapEvent(ctx.log, "BuyEvent", {
    ...commonEventFields(ctx, s, q.fees),
    base_amount_out: q.baseOut,
    max_quote_amount_in: ixName === "buy" ? second : first,
    quote_amount_in: q.quoteIn,
    quote_amount_in_with_lp_fee: q.quoteIn + q.fees.lp,
    // buy_exact_quote_in reports the routed (post-fee) input here, as the SDK's simulation test shows.
    user_quote_amount_in: ixName === "buy" ? q.total : q.quoteIn,
    track_volume: trackVolume,
    total_unclaimed_tokens: big(uva.total_unclaimed_tokens),
    total_claimed_tokens: big(uva.total_claimed_tokens),
    current_sol_volume: big(uva.current_sol_volume),
    last_update_timestamp: big(uva.last_update_timestamp),
    min_base_amount_out: ixName === "buy" ? first : second,
    ix_name: ixName,
  });
}

/** Executes `sell(base_amount_in, min_quote_amount_out)`. */
export function executeSell(ctx: InstructionContext, baseIn: bigint, minQuoteOut: bigint): void {
  const { ledger } = ctx;
  const s = setup(ctx, "sell");
  if (baseIn === 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
  const q = quoteSellBaseIn(baseIn, s.baseReserve, s.effQ, s.rates, s.hasCoinCreator, s.buybackBps);
  if (q.quoteOut === 0n) swapFail(SWAP_ERR.ZeroQuoteAmount);
  // Fees are rounded up, so a dust sell can owe more fees than it yields: the program's checked
  // subtraction fails; we report it as slippage.
  if (q.userOut < 0n || q.userOut < minQuoteOut) swapFail(SWAP_ERR.ExceededSlippage);
  initFeeAccounts(ledger, s);
  transferTokens(ledger, {
    from: s.acc.key("user_base_token_account"),
    to: s.pool.pool_base_token_account,
    mint: s.pool.base_mint,
    authority: s.user,
    amount: baseIn,
    decimals: s.baseDecimals,
    tokenProgram: s.baseTokenProgram,
  });
  const poolKey = s.acc.key("pool");
  transferTokens(ledger, {
    from: s.pool.pool_quote_token_account,
    to: s.acc.key("user_quote_token_account"),
    mint: s.pool.quote_mint,
    authority: poolKey,
    amount: q.userOut,
    decimals: s.quoteDecimals,
    tokenProgram: s.quoteTokenProgram,
  });
  payFees(ledger, s, q.fees, s.pool.pool_quote_token_account, poolKey);
  emitSwapEvent(ctx.log, "SellEvent", {
    ...commonEventFields(ctx, s, q.fees),
    base_amount_in: baseIn,
    min_quote_amount_out: minQuoteOut,
    quote_amount_out: q.quoteOut,
    quote_amount_out_without_lp_fee: q.quoteOut - q.fees.lp,
    user_quote_amount_out: q.userOut,
  });
}
