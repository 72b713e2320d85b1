/**
 * The bonding-curve program's `migrate` instruction (permissionless, signer `user`): moves a complete
 * curve into its canonical SOL-quoted pool (index 0, creator = pool authority, base = mint, quote = WSOL).
 * Vaults are the pool's ATAs; the curve's tokens and its SOL minus the migration fee move into them,
 * the fee goes to Global.withdraw_authority, flags carry over, the curve reads as migrated (all
 * reserves 0) and `CompletePumpAmmMigrationEvent` is logged. It lives beside the swap program because
 * it writes the swap program's Pool; the launch program dispatches to it. `user` pays the rents.
 */
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
} from "@solana/spl-token";
import type { InstructionAccount, InstructionContext } from "../types.js";
import { acct, idlInstruction, type CheckedAccounts } from "../launch/account-checks.js";
import { emitEvent } from "../launch/events.js";
import type { Exec } from "../launch/exec-support.js";
import { loadCurve, loadGlobal, moveFromProgramAccount, transferFromUser } from "../launch/exec-support.js";
import { anchorFail, programFail } from "../launch/failures.js";
import { pumpInstructionCoder } from "../launch/idl-coder.js";
import { readBuckets } from "../launch/curve-buckets.js";
import { encodeCurve, type Curve, type GlobalState } from "../launch/layouts.js";
import { EVENT_AUTHORITY_ADDRESS, GLOBAL_ADDRESS } from "../launch/pda.js";
import {
  LAUNCH_PROGRAM_ID,
  GLOBAL_CONFIG,
  NATIVE_MINT,
  SWAP_EVENT_AUTHORITY,
  SWAP_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  bondingCurvePda,
  lpMintPda,
  poolAuthorityPda,
  poolPda,
} from "./addresses.js";
import { POOL_ACCOUNT_SIZE, bn, encodeAccount, type PoolData } from "./codec.js";
import { readMint, readTokenAccount } from "./token-io.js";

const LP_DECIMALS = 9;
const MINT_SIZE = 82;
/** BondingCurveNotComplete. */
const NOT_COMPLETE = 6006;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

/** The swap program's coin-creator vault authority PDA. */
export function coinCreatorVaultAuthority(coinCreator: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from("creator_vault"), coinCreator.toBuffer()],
    SWAP_PROGRAM_ID,
  )[0];
}

/**
 * The instruction's accounts by IDL name. Only the accounts the emulation uses are checked (below):
 * the IDL derives some token accounts with the fixed SPL token program while launch mints are
 * Token-2022, so the generic PDA check does not apply to this instruction.
 */
function namedAccounts(ctx: InstructionContext, x: Exec): CheckedAccounts {
  const spec = idlInstruction("migrate");
  if (ctx.accounts.length < spec.accounts.length) anchorFail(x.log, "AccountNotEnoughKeys");
  const byName = new Map<string, InstructionAccount>();
  spec.accounts.forEach((a, i) => byName.set(a.name, ctx.accounts[i]!));
  return { byName, remaining: ctx.accounts.slice(spec.accounts.length) };
}

/** Executes `migrate` (see the module comment). */
export function executeMigrate(ctx: InstructionContext): void {
  const x: Exec = { ledger: ctx.ledger, log: (l) => ctx.log(l), programId: ctx.programId };
  x.log("Program log: Instruction: Migrate");
  const checked = namedAccounts(ctx, x);
  const mint = acct(checked, "mint").pubkey;
  const userAccount = acct(checked, "user");
  if (!userAccount.isSigner) anchorFail(x.log, "AccountNotSigner", "user");
  const user = userAccount.pubkey;
  if (!acct(checked, "global").pubkey.equals(GLOBAL_ADDRESS)) anchorFail(x.log, "ConstraintSeeds", "global");
  const global = loadGlobal(x, GLOBAL_ADDRESS);
  if (!acct(checked, "withdraw_authority").pubkey.equals(global.withdrawAuthority))
    programFail(x.log, 6000, "withdraw_authority");
  const curveKey = acct(checked, "bonding_curve").pubkey;
  if (!curveKey.equals(bondingCurvePda(mint))) anchorFail(x.log, "ConstraintSeeds", "bonding_curve");
  const { curve, data: curveData } = loadCurve(x, curveKey);
  if (!curve.complete || curve.realTokenReserves !== 0n || curve.virtualTokenReserves === 0n)
    programFail(x.log, NOT_COMPLETE);
  if (!curve.quoteMint.equals(PublicKey.default) && !curve.quoteMint.equals(NATIVE_MINT))
    throw new Error("only SOL-quoted curves can be migrated on the localnet");
  openPool(x, { user, mint, curveKey, curve, curveData, global, poolKey: acct(checked, "pool").pubkey });
}

/** What opening a pool from a complete curve needs. */
export interface PoolOpening {
  user: PublicKey;
  mint: PublicKey;
  curveKey: PublicKey;
  curve: Curve;
  curveData: Uint8Array;
  global: GlobalState;
  /** The pool account the instruction passed (must be the canonical pool). */
  poolKey: PublicKey;
}

/**
 * Moves a complete curve into its canonical pool (shared by `migrate` and `migrate_v2`). The quote
 * deposited is everything the curve raised, a synthetic migration's pool part included
 * (`post_complete_quote_in`, 0 for curves completed otherwise), minus the migration fee; fees kept on
 * the curve by v3 trades stay there for the sweeps.
 */
export function openPool(x: Exec, o: PoolOpening): PublicKey {
  const { user, mint, curveKey, curve, curveData, global } = o;
  const authority = poolAuthorityPda(mint);
  const [pool, poolBump] = poolPda(0, authority, mint, NATIVE_MINT);
  if (!o.poolKey.equals(pool)) programFail(x.log, 6000, "pool");
  if (x.ledger.getAccount(pool)) throw new Error(`pool ${pool.toBase58()} already exists`);
  const baseMint = readMint(x.ledger, mint);
  if (!baseMint) throw new Error(`mint ${mint.toBase58()} does not exist`);
  const baseProgram = baseMint.tokenProgram;
  const curveAta = ata(curveKey, mint, baseProgram);
  const tokens = readTokenAccount(x.ledger, curveAta)?.amount ?? 0n;
  const fee = global.poolMigrationFee;
  const sol = curve.realQuoteReserves + readBuckets(curveData).postCompleteQuoteIn - fee;
  if (tokens === 0n || sol <= 0n) throw new Error("curve holds nothing to migrate");

  const lpMint = lpMintPda(pool);
  const baseVault = ata(pool, mint, baseProgram);
  const quoteVault = ata(pool, NATIVE_MINT, TOKEN_PROGRAM_ID);
  const creatorVaultAuth = coinCreatorVaultAuthority(curve.creator);
  transferFromUser(x, user, pool, x.ledger.rentExemptMinimum(POOL_ACCOUNT_SIZE));
  const invoke = (ix: TransactionInstruction) => x.ledger.invoke(ix);
  invoke(
    SystemProgram.createAccount({
      fromPubkey: user,
      newAccountPubkey: lpMint,
      lamports: Number(x.ledger.rentExemptMinimum(MINT_SIZE)),
      space: MINT_SIZE,
      programId: TOKEN_2022_PROGRAM_ID,
    }),
  );
  invoke(createInitializeMint2Instruction(lpMint, LP_DECIMALS, pool, null, TOKEN_2022_PROGRAM_ID));
  invoke(createAssociatedTokenAccountIdempotentInstruction(user, baseVault, pool, mint, baseProgram));
  invoke(
    createAssociatedTokenAccountIdempotentInstruction(user, quoteVault, pool, NATIVE_MINT, TOKEN_PROGRAM_ID),
  );
  const creatorVaultAta = ata(creatorVaultAuth, NATIVE_MINT, TOKEN_PROGRAM_ID);
  invoke(
    createAssociatedTokenAccountIdempotentInstruction(
      user,
      creatorVaultAta,
      creatorVaultAuth,
      NATIVE_MINT,
      TOKEN_PROGRAM_ID,
    ),
  );
  invoke(
    createTransferCheckedInstruction(
      curveAta,
      mint,
      baseVault,
      curveKey,
      tokens,
      baseMint.decimals,
      [],
      baseProgram,
    ),
  );
  // The curve's SOL is program-owned: it moves by direct debit, as the program does.
  moveFromProgramAccount(x, curveKey, global.withdrawAuthority, fee);
  moveFromProgramAccount(x, curveKey, quoteVault, sol);
  invoke(createSyncNativeInstruction(quoteVault, TOKEN_PROGRAM_ID));
  const after = {
    ...curve,
    virtualTokenReserves: 0n,
    virtualQuoteReserves: 0n,
    realTokenReserves: 0n,
    realQuoteReserves: 0n,
    complete: true,
  };
  const curveNow = x.ledger.getAccount(curveKey)!;
  x.ledger.setAccount(curveKey, { ...curveNow, data: encodeCurve(after, curveData) });

  const poolData: PoolData = {
    pool_bump: poolBump,
    index: 0,
    creator: authority,
    base_mint: mint,
    quote_mint: NATIVE_MINT,
    lp_mint: lpMint,
    pool_base_token_account: baseVault,
    pool_quote_token_account: quoteVault,
    // LP tokens are burned at migration: the mint's supply stays 0; lp_supply records the initial liquidity.
    lp_supply: bn(isqrt(tokens * sol)),
    coin_creator: curve.creator,
    is_mayhem_mode: curve.isMayhemMode,
    is_cashback_coin: curve.isCashbackCoin,
    virtual_quote_reserves: bn(0n),
    creator_fee_bps: bn(curve.creatorFeeBps),
    can_edit_creator_fee: false,
  };
  const poolAcc = x.ledger.getAccount(pool)!;
  x.ledger.setAccount(pool, {
    lamports: poolAcc.lamports,
    data: encodeAccount("Pool", poolData, POOL_ACCOUNT_SIZE),
    owner: SWAP_PROGRAM_ID,
    executable: false,
  });
  emitEvent(x.log, "CompletePumpAmmMigrationEvent", {
    user,
    mint,
    mintAmount: tokens,
    solAmount: sol,
    poolMigrationFee: fee,
    bondingCurve: curveKey,
    timestamp: x.ledger.clock().unixTimestamp,
    pool,
    quoteMint: NATIVE_MINT,
  });
  return pool;
}

/**
 * The `migrate` instruction, its accounts listed in the IDL's order and resolved by name (the same
 * list the SDK's async `migrateInstruction` builds; a test compares both). Sync, for the operator path.
 */
export function migrateInstruction(
  mint: PublicKey,
  user: PublicKey,
  withdrawAuthority: PublicKey,
): TransactionInstruction {
  const spec = idlInstruction("migrate");
  const curve = bondingCurvePda(mint);
  const authority = poolAuthorityPda(mint);
  const [pool] = poolPda(0, authority, mint, NATIVE_MINT);
  const t22 = TOKEN_2022_PROGRAM_ID;
  const byName: Record<string, PublicKey> = {
    global: GLOBAL_ADDRESS,
    withdraw_authority: withdrawAuthority,
    mint,
    bonding_curve: curve,
    associated_bonding_curve: ata(curve, mint, t22),
    user,
    pool,
    pool_authority: authority,
    pool_authority_mint_account: ata(authority, mint, t22),
    pool_authority_wsol_account: ata(authority, NATIVE_MINT, TOKEN_PROGRAM_ID),
    wsol_mint: NATIVE_MINT,
    lp_mint: lpMintPda(pool),
    user_pool_token_account: ata(authority, lpMintPda(pool), t22),
    pool_base_token_account: ata(pool, mint, t22),
    pool_quote_token_account: ata(pool, NATIVE_MINT, TOKEN_PROGRAM_ID),
    amm_global_config: GLOBAL_CONFIG,
    pump_amm_event_authority: SWAP_EVENT_AUTHORITY,
    event_authority: EVENT_AUTHORITY_ADDRESS,
  };
  const keys = spec.accounts.map((a) => {
    const pubkey = a.address ? new PublicKey(a.address) : byName[a.name];
    if (!pubkey) throw new Error(`migrate: no address for account ${a.name}`);
    return { pubkey, isSigner: a.signer === true, isWritable: a.writable === true };
  });
  return new TransactionInstruction({
    programId: LAUNCH_PROGRAM_ID,
    keys,
    data: pumpInstructionCoder.encode("migrate", {}),
  });
}
