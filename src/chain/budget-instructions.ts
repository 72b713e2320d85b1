/**
 * The compute-budget and tip-transfer instructions every transaction carries, encoded directly. web3.js's
 * `ComputeBudgetProgram.setComputeUnitLimit/Price` and `SystemProgram.transfer` go through buffer-layout and
 * the codecs package for 5, 9 and 12 bytes (about 5 µs of CPU and a dozen objects per trade, issue 18); the
 * bytes are the same (test/unit/chain/budget-instructions.test.ts compares them with web3.js's).
 */
import { ComputeBudgetProgram, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

/** ComputeBudget `SetComputeUnitLimit` (instruction 2, u32 units). */
export function setComputeUnitLimit(units: number): TransactionInstruction {
  const data = Buffer.alloc(5);
  data[0] = 2;
  data.writeUInt32LE(units, 1);
  return new TransactionInstruction({ programId: ComputeBudgetProgram.programId, keys: [], data });
}

/** ComputeBudget `SetComputeUnitPrice` (instruction 3, u64 micro-lamports per compute unit). */
export function setComputeUnitPrice(microLamports: bigint): TransactionInstruction {
  const data = Buffer.alloc(9);
  data[0] = 3;
  data.writeBigUInt64LE(microLamports, 1);
  return new TransactionInstruction({ programId: ComputeBudgetProgram.programId, keys: [], data });
}

/** System program `Transfer` (instruction 2 as u32, u64 lamports) from a signing `from` to `to`. */
export function systemTransfer(from: PublicKey, to: PublicKey, lamports: bigint): TransactionInstruction {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(lamports, 4);
  return new TransactionInstruction({
    programId: SystemProgram.programId,
    keys: [
      { pubkey: from, isSigner: true, isWritable: true },
      { pubkey: to, isSigner: false, isWritable: true },
    ],
    data,
  });
}
