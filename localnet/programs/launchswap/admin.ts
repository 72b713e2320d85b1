/**
 * Operator helpers behind the localnet's admin routes: migrate a complete bonding curve into its
 * canonical SOL-quoted pool, and give a user claimable swap cashback.
 */
import { SystemProgram, type PublicKey } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
} from "@solana/spl-token";
import type { AdminLedger } from "../types.js";
import { readCurve, readGlobal } from "../launch/index.js";
import {
  NATIVE_MINT,
  SWAP_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  poolAuthorityPda,
  poolPda,
  swapUserVolumeAccumulatorPda,
} from "./addresses.js";
import { USER_VOLUME_ACCUMULATOR_SIZE, big, bn, encodeAccount, newUserVolumeAccumulator } from "./codec.js";
import { migrateInstruction } from "./migrate.js";
import { migrateV2Instruction } from "./migrate-v2.js";
import { loadUserVolumeAccumulator, storeUserVolumeAccumulator } from "./state.js";
import { readTokenAccount } from "./token-io.js";

/**
 * Migrates a complete curve into its canonical pool by running the program's own `migrate`
 * instruction (launchswap/migrate.ts) as a recorded operator transaction, so its logs and
 * `CompletePumpAmmMigrationEvent` exist like any other landed transaction's.
 */
export function migrateCurve(
  ledger: AdminLedger,
  mint: PublicKey,
  instruction: "migrate" | "migrate_v2" = "migrate",
): { pool: PublicKey; signature: string } {
  const curve = readCurve(ledger, mint);
  if (!curve) throw new Error(`no bonding curve for mint ${mint.toBase58()}`);
  if (!curve.complete) throw new Error(`bonding curve of ${mint.toBase58()} is not complete`);
  const withdrawAuthority = readGlobal(ledger).withdrawAuthority;
  const build = instruction === "migrate_v2" ? migrateV2Instruction : migrateInstruction;
  const { signature } = ledger.submit([build(mint, ledger.operator.publicKey, withdrawAuthority)]);
  const [pool] = poolPda(0, poolAuthorityPda(mint), mint, NATIVE_MINT);
  return { pool, signature };
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
