/**
 * Operator helpers behind the localnet's admin routes: migrate a complete bonding curve into its
 * canonical SOL-quoted pool, and give a user claimable swap cashback.
 */
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
} from "@solana/spl-token";
import type { AdminLedger } from "../types.js";
import { readCurve, readGlobal, writeCurve } from "../launch/index.js";
import {
  NATIVE_MINT,
  SWAP_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  bondingCurvePda,
  lpMintPda,
  poolAuthorityPda,
  poolPda,
  swapUserVolumeAccumulatorPda,
} from "./addresses.js";
import {
  POOL_ACCOUNT_SIZE,
  USER_VOLUME_ACCUMULATOR_SIZE,
  big,
  bn,
  encodeAccount,
  newUserVolumeAccumulator,
  type PoolData,
} from "./codec.js";
import { loadUserVolumeAccumulator, storeUserVolumeAccumulator } from "./state.js";
import { readMint, readTokenAccount } from "./token-io.js";

const LP_DECIMALS = 9;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

/** The swap program's coin-creator vault authority PDA. */
function coinCreatorVaultAuthority(coinCreator: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from("creator_vault"), coinCreator.toBuffer()],
    SWAP_PROGRAM_ID,
  )[0];
}

/**
 * Migrates a complete curve into its canonical pool (index 0, creator = pool authority, base = mint,
 * quote = WSOL): vaults are the pool's ATAs, the curve's tokens and its SOL minus the migration fee
 * move into them, flags carry over, and the curve reads as migrated (all reserves 0).
 */
export function migrateCurve(ledger: AdminLedger, mint: PublicKey): { pool: PublicKey } {
  const curveKey = bondingCurvePda(mint);
  const curve = readCurve(ledger, mint);
  if (!curve) throw new Error(`no bonding curve for mint ${mint.toBase58()}`);
  if (!curve.complete) throw new Error(`bonding curve of ${mint.toBase58()} is not complete`);
  if (!curve.quoteMint.equals(PublicKey.default) && !curve.quoteMint.equals(NATIVE_MINT))
    throw new Error("only SOL-quoted curves can be migrated on the localnet");
  const authority = poolAuthorityPda(mint);
  const [pool, poolBump] = poolPda(0, authority, mint, NATIVE_MINT);
  if (ledger.getAccount(pool)) throw new Error(`pool ${pool.toBase58()} already exists`);
  const baseMint = readMint(ledger, mint);
  if (!baseMint) throw new Error(`mint ${mint.toBase58()} does not exist`);
  const baseProgram = baseMint.tokenProgram;
  const curveAta = ata(curveKey, mint, baseProgram);
  const tokens = readTokenAccount(ledger, curveAta)?.amount ?? 0n;
  const global = readGlobal(ledger);
  const withdrawAuthority = global.withdrawAuthority;
  const fee = global.poolMigrationFee;
  const sol = curve.realQuoteReserves - fee;
  if (tokens === 0n || sol <= 0n) throw new Error("curve holds nothing to migrate");

  const op = ledger.operator.publicKey;
  const lpMint = lpMintPda(pool);
  const baseVault = ata(pool, mint, baseProgram);
  const quoteVault = ata(pool, NATIVE_MINT, TOKEN_PROGRAM_ID);
  const creatorVaultAuth = coinCreatorVaultAuthority(curve.creator);
  const mintRent = ledger.rentExemptMinimum(82);
  const ixs: TransactionInstruction[] = [
    SystemProgram.transfer({
      fromPubkey: op,
      toPubkey: pool,
      lamports: ledger.rentExemptMinimum(POOL_ACCOUNT_SIZE),
    }),
    SystemProgram.createAccount({
      fromPubkey: op,
      newAccountPubkey: lpMint,
      lamports: Number(mintRent),
      space: 82,
      programId: TOKEN_2022_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(lpMint, LP_DECIMALS, pool, null, TOKEN_2022_PROGRAM_ID),
    createAssociatedTokenAccountIdempotentInstruction(op, baseVault, pool, mint, baseProgram),
    createAssociatedTokenAccountIdempotentInstruction(op, quoteVault, pool, NATIVE_MINT, TOKEN_PROGRAM_ID),
    createAssociatedTokenAccountIdempotentInstruction(
      op,
      ata(creatorVaultAuth, NATIVE_MINT, TOKEN_PROGRAM_ID),
      creatorVaultAuth,
      NATIVE_MINT,
      TOKEN_PROGRAM_ID,
    ),
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
  ];
  ledger.execute(ixs);

  // The curve reads as migrated (all reserves 0, the SDK's "migrated" check). It is program-owned:
  // its lamports move by direct debit, as the program would do.
  writeCurve(ledger, mint, {
    ...curve,
    virtualTokenReserves: 0n,
    virtualQuoteReserves: 0n,
    realTokenReserves: 0n,
    realQuoteReserves: 0n,
    complete: true,
  });
  const curveNow = ledger.getAccount(curveKey)!;
  ledger.setAccount(curveKey, { ...curveNow, lamports: curveNow.lamports - curve.realQuoteReserves });
  ledger.fund(withdrawAuthority, fee);
  const vaultAcc = ledger.getAccount(quoteVault)!;
  ledger.setAccount(quoteVault, { ...vaultAcc, lamports: vaultAcc.lamports + sol });
  ledger.execute([createSyncNativeInstruction(quoteVault, TOKEN_PROGRAM_ID)]);

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
  const poolAcc = ledger.getAccount(pool)!;
  ledger.setAccount(pool, {
    lamports: poolAcc.lamports,
    data: encodeAccount("Pool", poolData, POOL_ACCOUNT_SIZE),
    owner: SWAP_PROGRAM_ID,
    executable: false,
  });
  return { pool };
}

/**
 * Makes `user` hold exactly `lamports` of claimable swap cashback: creates the swap user volume
 * accumulator when missing, sets `cashback_earned = total_cashback_claimed + lamports` and makes its
 * WSOL ATA hold `lamports` (funded by the operator; any excess goes to the operator's WSOL account).
 */
export function setSwapCashback(ledger: AdminLedger, user: PublicKey, lamports: bigint): void {
  if (lamports < 0n) throw new Error("cashback cannot be negative");
  const op = ledger.operator.publicKey;
  const uvaKey = swapUserVolumeAccumulatorPda(user);
  const uvaAta = ata(uvaKey, NATIVE_MINT, TOKEN_PROGRAM_ID);
  if (!ledger.getAccount(uvaKey)) {
    ledger.execute([
      SystemProgram.transfer({
        fromPubkey: op,
        toPubkey: uvaKey,
        lamports: ledger.rentExemptMinimum(USER_VOLUME_ACCUMULATOR_SIZE),
      }),
    ]);
    const acc = ledger.getAccount(uvaKey)!;
    ledger.setAccount(uvaKey, {
      lamports: acc.lamports,
      data: encodeAccount(
        "UserVolumeAccumulator",
        newUserVolumeAccumulator(user),
        USER_VOLUME_ACCUMULATOR_SIZE,
      ),
      owner: SWAP_PROGRAM_ID,
      executable: false,
    });
  }
  ledger.execute([
    createAssociatedTokenAccountIdempotentInstruction(op, uvaAta, uvaKey, NATIVE_MINT, TOKEN_PROGRAM_ID),
  ]);
  const balance = readTokenAccount(ledger, uvaAta)!.amount;
  if (lamports > balance) {
    ledger.execute([
      SystemProgram.transfer({ fromPubkey: op, toPubkey: uvaAta, lamports: lamports - balance }),
      createSyncNativeInstruction(uvaAta, TOKEN_PROGRAM_ID),
    ]);
  } else if (lamports < balance) {
    const opWsol = ata(op, NATIVE_MINT, TOKEN_PROGRAM_ID);
    ledger.execute([
      createAssociatedTokenAccountIdempotentInstruction(op, opWsol, op, NATIVE_MINT, TOKEN_PROGRAM_ID),
      createTransferCheckedInstruction(
        uvaAta,
        NATIVE_MINT,
        opWsol,
        uvaKey,
        balance - lamports,
        9,
        [],
        TOKEN_PROGRAM_ID,
      ),
    ]);
  }
  const uva = loadUserVolumeAccumulator(ledger, uvaKey)!;
  uva.cashback_earned = bn(big(uva.total_cashback_claimed) + lamports);
  storeUserVolumeAccumulator(ledger, uvaKey, uva);
}
