/**
 * Account checks and pricing inputs shared by the swap program's October 2026 instructions (the v2
 * trades, 17 accounts, no remaining accounts; PUMP_SWAP_TRADE_V2.md).
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { InstructionContext } from "../types.js";
import { namedAccounts, type NamedAccounts } from "../upgrade/accounts.js";
import { upgradeSpec } from "../upgrade/instructions.js";
import { ANCHOR, fail } from "./account-check.js";
import {
  GLOBAL_CONFIG,
  NATIVE_MINT,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_PROGRAM_ID,
  ata,
  poolAuthorityPda,
  swapUserVolumeAccumulatorPda,
} from "./addresses.js";
import { big, type GlobalConfigData, type PoolData } from "./codec.js";
import { SWAP_ERR, swapFail } from "./errors.js";
import { feeRates } from "./fees.js";
import { readPoolFeeState, type PoolFeeState } from "./pool-buckets.js";
import { globalRates, loadFeeSchedule, loadGlobalConfig, loadPool } from "./state.js";
import { checkTradeMints } from "./trade-checks.js";
import { readTokenAccount } from "./token-io.js";

/** CashbackCoinNotSupported: cashback pools refuse the v2 trades. */
export const CASHBACK_COIN_NOT_SUPPORTED = 6079;

/** Everything a v2 trade resolved before moving funds. */
export interface SwapV2Setup {
  a: NamedAccounts;
  poolKey: PublicKey;
  pool: PoolData;
  fees: PoolFeeState;
  gc: GlobalConfigData;
  user: PublicKey;
  baseDecimals: number;
  quoteDecimals: number;
  baseTokenProgram: PublicKey;
  quoteTokenProgram: PublicKey;
  baseReserve: bigint;
  quoteReserve: bigint;
  /** vault + signed virtual_quote_reserves: what prices trade on. */
  effQ: bigint;
  hasCoinCreator: boolean;
  buybackBps: bigint;
  buyback: PublicKey;
  rates: ReturnType<typeof feeRates>;
  baseSupply: bigint;
  userBase: bigint;
  userQuote: bigint;
}

const same = (given: PublicKey, expected: PublicKey, code: number, name: string, account: string) => {
  if (!given.equals(expected)) fail(code, name, account);
};

/** Checks the accounts of v2 trade `name` and reads what it prices on. */
export function setupV2(ctx: InstructionContext, name: string, isBuy: boolean): SwapV2Setup {
  const { ledger } = ctx;
  const a = namedAccounts(upgradeSpec("launchswap", name), ctx.accounts, (e, acc) => fail(ANCHOR[e], e, acc));
  const poolKey = a.key("pool");
  const pool = loadPool(ledger, poolKey);
  const user = a.key("user");
  same(a.key("global_config"), GLOBAL_CONFIG, ANCHOR.ConstraintSeeds, "ConstraintSeeds", "global_config");
  for (const [n, want] of [
    ["base_mint", pool.base_mint],
    ["quote_mint", pool.quote_mint],
    ["pool_base_token_account", pool.pool_base_token_account],
    ["pool_quote_token_account", pool.pool_quote_token_account],
  ] as const)
    same(a.key(n), want, ANCHOR.ConstraintHasOne, "ConstraintHasOne", n);
  same(
    a.key("system_program"),
    SystemProgram.programId,
    ANCHOR.InvalidProgramId,
    "InvalidProgramId",
    "system_program",
  );
  same(
    a.key("user_volume_accumulator"),
    swapUserVolumeAccumulatorPda(user),
    ANCHOR.ConstraintSeeds,
    "ConstraintSeeds",
    "user_volume_accumulator",
  );
  same(a.key("fee_config"), SWAP_FEE_CONFIG, ANCHOR.ConstraintSeeds, "ConstraintSeeds", "fee_config");
  same(
    a.key("event_authority"),
    SWAP_EVENT_AUTHORITY,
    ANCHOR.ConstraintSeeds,
    "ConstraintSeeds",
    "event_authority",
  );
  same(a.key("program"), SWAP_PROGRAM_ID, ANCHOR.ConstraintAddress, "ConstraintAddress", "program");
  const gc = loadGlobalConfig(ledger, GLOBAL_CONFIG);
  const schedule = loadFeeSchedule(ledger, SWAP_FEE_CONFIG);
  if (isBuy && (gc.disable_flags & 0b1000) !== 0) swapFail(SWAP_ERR.DisabledBuy);
  if (!isBuy && (gc.disable_flags & 0b10000) !== 0) swapFail(SWAP_ERR.DisabledSell);
  if (pool.is_cashback_coin) swapFail(CASHBACK_COIN_NOT_SUPPORTED);

  const { baseMint, quoteMint, baseTokenProgram, quoteTokenProgram, userBase, userQuote } = checkTradeMints(
    ledger,
    pool,
    a,
  );
  // One buyback token account: the quote ATA of one of the configured buyback wallets; it must exist.
  const buyback = a.key("buyback_fee_recipient");
  if (!gc.buyback_fee_recipients.some((r) => ata(r, pool.quote_mint, quoteTokenProgram).equals(buyback)))
    swapFail(SWAP_ERR.BuybackFeeRecipientNotAuthorized);
  if (!readTokenAccount(ledger, buyback))
    fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", "buyback_fee_recipient");

  const fees = readPoolFeeState(ledger.getAccount(poolKey)!.data);
  const baseReserve = readTokenAccount(ledger, pool.pool_base_token_account)?.amount ?? 0n;
  const quoteReserve = readTokenAccount(ledger, pool.pool_quote_token_account)?.amount ?? 0n;
  const effQ = quoteReserve + fees.virtualQuoteReserves;
  if (baseReserve === 0n || effQ <= 0n) swapFail(SWAP_ERR.ZeroBaseAmount);
  const quoteKind = [PublicKey.default, NATIVE_MINT].some((m) => m.equals(pool.quote_mint))
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
    a,
    poolKey,
    pool,
    fees,
    gc,
    user,
    baseDecimals: baseMint.decimals,
    quoteDecimals: quoteMint.decimals,
    baseTokenProgram,
    quoteTokenProgram,
    baseReserve,
    quoteReserve,
    effQ,
    hasCoinCreator: !pool.coin_creator.equals(PublicKey.default),
    buybackBps: big(gc.buyback_basis_points),
    buyback,
    rates,
    baseSupply: baseMint.supply,
    userBase,
    userQuote,
  };
}
