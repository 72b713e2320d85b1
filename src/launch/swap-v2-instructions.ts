/**
 * The launchswap v2 trades (17 accounts, protocol and coin-creator fee kept in the pool until a sweep)
 * and the pool's two sweeps, for WSOL-quoted pools: the only pools the service trades. Built from the
 * recorded IDL (upgrade-idl.ts). Cashback pools refuse v2 (6079): callers keep the SDK's v1 builders.
 * v2 never creates token accounts: the WSOL account is created, funded and closed around the trade as the
 * SDK does for v1, and the buyer's base account is created idempotently when missing.
 */
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
} from "./spl-token.js";
import type { Random } from "./fee-recipients.js";
import {
  SPL_TOKEN_PROGRAM_ID,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
  WSOL_MINT,
  associatedTokenAddress,
  swapCreatorVaultAuthority,
  swapUserVolumeAccumulator,
} from "./programs.js";
import type { PoolState, SwapGlobalConfig } from "./state.js";
import { keyText, tradeKeysMemo, withAccount } from "./trade-keys-memo.js";
import {
  buildUpgradeInstruction,
  tradeShapes,
  upgradeAccountMetas,
  upgradeInstructionOf,
  type UpgradeArgs,
} from "./upgrade-idl.js";

/** What every v2 pool trade needs. */
export interface SwapV2Args {
  globalConfig: SwapGlobalConfig;
  poolAddress: PublicKey;
  pool: PoolState;
  user: PublicKey;
  /** Owner of the base mint. */
  tokenProgram: PublicKey;
  random?: Random;
}

function pickSet(list: readonly PublicKey[], random: Random, what: string): PublicKey {
  const set = list.filter((k) => !k.equals(PublicKey.default));
  const chosen = set[Math.min(set.length - 1, Math.floor(random() * set.length))];
  if (chosen === undefined) throw new Error(`launchswap GlobalConfig has no ${what}`);
  return chosen;
}

/** The 17 accounts of a v2 trade of `user` on a WSOL-quoted pool. */
export function swapV2Accounts(args: SwapV2Args): Record<string, PublicKey> {
  return swapV2AccountsWith(args, buybackAccount(pickBuyback(args)));
}

function pickBuyback(args: SwapV2Args): PublicKey {
  return pickSet(args.globalConfig.buybackFeeRecipients, args.random ?? Math.random, "buyback recipient");
}

// A buyback wallet's WSOL account, per key instance (the config's few wallets, the same instances while the
// cached config is unchanged): a PDA-memo lookup re-encodes the three seeds on every trade.
const buybackAccounts = new WeakMap<PublicKey, PublicKey>();
function buybackAccount(buyback: PublicKey): PublicKey {
  let account = buybackAccounts.get(buyback);
  if (account === undefined) {
    account = associatedTokenAddress(buyback, WSOL_MINT, SPL_TOKEN_PROGRAM_ID);
    buybackAccounts.set(buyback, account);
  }
  return account;
}

function swapV2AccountsWith(
  args: Omit<SwapV2Args, "globalConfig" | "random">,
  buybackAta: PublicKey,
): Record<string, PublicKey> {
  const { pool, user, tokenProgram } = args;
  return {
    pool: args.poolAddress,
    user,
    global_config: SWAP_GLOBAL_CONFIG,
    base_mint: pool.baseMint,
    quote_mint: WSOL_MINT,
    user_base_token_account: associatedTokenAddress(user, pool.baseMint, tokenProgram),
    user_quote_token_account: associatedTokenAddress(user, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    pool_base_token_account: pool.poolBaseTokenAccount,
    pool_quote_token_account: pool.poolQuoteTokenAccount,
    base_token_program: tokenProgram,
    quote_token_program: SPL_TOKEN_PROGRAM_ID,
    user_volume_accumulator: swapUserVolumeAccumulator(user),
    fee_config: SWAP_FEE_CONFIG,
    // The buyback share goes to a buyback wallet's WSOL account (exists for every listed wallet).
    buyback_fee_recipient: buybackAta,
    event_authority: SWAP_EVENT_AUTHORITY,
  };
}

type SwapV2Trade = "buy_v2" | "buy_exact_quote_in_v2" | "sell_v2";
// Per trade instruction, once: its layout id (the memo key's head) and where its buyback account goes.
const swapV2Shapes = tradeShapes("launchswap", ["buy_v2", "buy_exact_quote_in_v2", "sell_v2"] as const);

/**
 * The v2 trade `name` (data encoded now). Its account list is kept (trade-keys-memo.ts) by its layout and every
 * key the list holds or derives from: pool address, user and token program in the memo key; the pool's base mint
 * and two vaults, read from the pool account (new instances on every trade), compared with the entry's; nothing
 * else of the pool state is in the list. The buyback account, from the random pick, goes into its slot per trade.
 */
function swapV2Instruction(name: SwapV2Trade, args: SwapV2Args, data: UpgradeArgs): TransactionInstruction {
  const buybackAta = buybackAccount(pickBuyback(args));
  const { pool } = args;
  const shape = swapV2Shapes[name];
  const key = shape.layout + keyText(args.poolAddress) + keyText(args.user) + keyText(args.tokenProgram);
  const kept = tradeKeysMemo.metas(
    key,
    () => upgradeAccountMetas("launchswap", name, swapV2AccountsWith(args, buybackAta)),
    [pool.baseMint, pool.poolBaseTokenAccount, pool.poolQuoteTokenAccount],
  );
  return upgradeInstructionOf("launchswap", name, withAccount(kept, shape.buybackAt, buybackAta), data);
}

// [WSOL create, fund + sync when wrapping, base ATA create, trade, close WSOL (unwraps what is left)].
function aroundWsol(args: SwapV2Args, wrap: bigint, ix: TransactionInstruction): TransactionInstruction[] {
  const { user, pool, tokenProgram } = args;
  const wsol = associatedTokenAddress(user, WSOL_MINT, SPL_TOKEN_PROGRAM_ID);
  const base = associatedTokenAddress(user, pool.baseMint, tokenProgram);
  const out = [
    createAssociatedTokenAccountIdempotentInstruction(user, wsol, user, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
  ];
  if (wrap > 0n) {
    out.push(SystemProgram.transfer({ fromPubkey: user, toPubkey: wsol, lamports: wrap }));
    out.push(createSyncNativeInstruction(wsol));
  }
  out.push(createAssociatedTokenAccountIdempotentInstruction(user, base, user, pool.baseMint, tokenProgram));
  out.push(ix);
  out.push(createCloseAccountInstruction(wsol, user, user, undefined, SPL_TOKEN_PROGRAM_ID));
  return out;
}

/** buy_v2: exactly `baseOut` tokens for at most `maxQuoteIn` lamports. */
export function buildSwapBuyV2(
  args: SwapV2Args & { baseOut: bigint; maxQuoteIn: bigint },
): TransactionInstruction[] {
  const ix = swapV2Instruction("buy_v2", args, {
    base_amount_out: args.baseOut,
    max_quote_amount_in: args.maxQuoteIn,
  });
  return aroundWsol(args, args.maxQuoteIn, ix);
}

/** buy_exact_quote_in_v2: spend exactly `spendable` lamports for at least `minBaseOut` tokens. */
export function buildSwapBuyExactQuoteInV2(
  args: SwapV2Args & { spendable: bigint; minBaseOut: bigint },
): TransactionInstruction[] {
  const ix = swapV2Instruction("buy_exact_quote_in_v2", args, {
    spendable_quote_in: args.spendable,
    min_base_amount_out: args.minBaseOut,
  });
  return aroundWsol(args, args.spendable, ix);
}

/** sell_v2: `baseIn` tokens for at least `minQuoteOut` lamports (paid as WSOL, unwrapped by the close). */
export function buildSwapSellV2(
  args: SwapV2Args & { baseIn: bigint; minQuoteOut: bigint },
): TransactionInstruction[] {
  const ix = swapV2Instruction("sell_v2", args, {
    base_amount_in: args.baseIn,
    min_quote_amount_out: args.minQuoteOut,
  });
  return aroundWsol(args, 0n, ix);
}

function poolSweepAccounts(
  payer: PublicKey,
  poolAddress: PublicKey,
  pool: PoolState,
  recipient: PublicKey,
): Record<string, PublicKey> {
  return {
    payer,
    global_config: SWAP_GLOBAL_CONFIG,
    pool: poolAddress,
    quote_mint: WSOL_MINT,
    quote_token_program: SPL_TOKEN_PROGRAM_ID,
    pool_quote_token_account: pool.poolQuoteTokenAccount,
    recipient,
    recipient_token_account: associatedTokenAddress(recipient, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    event_authority: SWAP_EVENT_AUTHORITY,
  };
}

/** Pool sweep_creator_fee: the kept coin-creator fee to the coin creator's vault (before collect_coin_creator_fee). */
export function buildSwapSweepCreatorFee(args: {
  payer: PublicKey;
  poolAddress: PublicKey;
  pool: PoolState;
}): TransactionInstruction {
  const recipient = swapCreatorVaultAuthority(args.pool.coinCreator);
  return buildUpgradeInstruction(
    "launchswap",
    "sweep_creator_fee",
    poolSweepAccounts(args.payer, args.poolAddress, args.pool, recipient),
  );
}

/** Pool sweep_protocol_fee: the kept protocol fee to a protocol fee recipient (reserved ones for mayhem pools). */
export function buildSwapSweepProtocolFee(args: {
  payer: PublicKey;
  poolAddress: PublicKey;
  pool: PoolState;
  globalConfig: SwapGlobalConfig;
  random?: Random;
}): TransactionInstruction {
  const gc = args.globalConfig;
  const list = args.pool.isMayhemMode
    ? [gc.reservedFeeRecipient, ...gc.reservedFeeRecipients]
    : gc.protocolFeeRecipients;
  const recipient = pickSet(list, args.random ?? Math.random, "protocol fee recipient");
  return buildUpgradeInstruction(
    "launchswap",
    "sweep_protocol_fee",
    poolSweepAccounts(args.payer, args.poolAddress, args.pool, recipient),
  );
}
