import { describe, expect, it } from "vitest";
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { cashbackReadPlan, interpretCashbackRead } from "../../../src/launch/cashback-accounts.js";
import {
  buildClaimCurveCashback,
  buildClaimSwapCashback,
} from "../../../src/launch/cashback-instructions.js";
import {
  LAUNCH_EVENT_AUTHORITY,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  SWAP_EVENT_AUTHORITY,
  associatedTokenAddress,
  launchUserVolumeAccumulator,
  swapCashbackWsolAccount,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import type { ReadAccount } from "../../../src/launch/read-account.js";
import { key, tokenAccountData } from "../../helpers/fixtures.js";

function wsolAccount(
  owner: PublicKey,
  amount: bigint,
  mint = NATIVE_MINT,
  program = TOKEN_PROGRAM_ID,
): ReadAccount {
  const data = tokenAccountData({ mint, owner, amount, isNative: 2_039_280n });
  return { lamports: 2_039_280n + amount, owner: program, data };
}

const flags = (ix: TransactionInstruction) =>
  ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable] as const);

describe("cashback read", () => {
  it("reads two accounts per wallet, in wallet order", () => {
    const wallets = [key(1), key(2)];
    const plan = cashbackReadPlan(wallets);
    expect(plan.addresses).toEqual([
      launchUserVolumeAccumulator(key(1)),
      swapCashbackWsolAccount(key(1)),
      launchUserVolumeAccumulator(key(2)),
      swapCashbackWsolAccount(key(2)),
    ]);
    expect(plan.wallets[1]?.launchswapUserVolumeAccumulator).toEqual(swapUserVolumeAccumulator(key(2)));
  });

  it("reports lamports and size of the launch accumulator and the swap WSOL balance", () => {
    const wallets = [key(1), key(2), key(3)];
    const plan = cashbackReadPlan(wallets);
    const reads = interpretCashbackRead(plan, [
      { lamports: 1_844_400n + 5_000n, owner: LAUNCH_PROGRAM_ID, data: Buffer.alloc(137) },
      wsolAccount(swapUserVolumeAccumulator(key(1)), 7_000n),
      null,
      null,
      { lamports: 10, owner: SystemProgram.programId, data: Buffer.alloc(0) },
      wsolAccount(key(42), 9n), // owned by someone else than the accumulator
    ]);
    expect(reads[0]?.launch).toEqual({
      exists: true,
      lamports: 1_849_400n,
      dataLength: 137,
      ownedByLaunch: true,
    });
    expect(reads[0]?.swap).toEqual({ exists: true, amount: 7_000n, valid: true });
    expect(reads[1]?.launch).toEqual({ exists: false, lamports: 0n, dataLength: 0, ownedByLaunch: true });
    expect(reads[1]?.swap).toEqual({ exists: false, amount: 0n, valid: true });
    expect(reads[2]?.launch.ownedByLaunch).toBe(false);
    expect(reads[2]?.swap).toEqual({ exists: true, amount: 0n, valid: false });
  });

  it("flags a swap cashback account of another mint or token program as invalid", () => {
    const plan = cashbackReadPlan([key(1)]);
    const uva = swapUserVolumeAccumulator(key(1));
    const otherMint = interpretCashbackRead(plan, [null, wsolAccount(uva, 5n, key(9))]);
    expect(otherMint[0]?.swap.valid).toBe(false);
    const otherProgram = interpretCashbackRead(plan, [
      null,
      wsolAccount(uva, 5n, NATIVE_MINT, TOKEN_2022_PROGRAM_ID),
    ]);
    expect(otherProgram[0]?.swap.valid).toBe(false);
    const garbage = interpretCashbackRead(plan, [
      null,
      { lamports: 1n, owner: TOKEN_PROGRAM_ID, data: Buffer.alloc(3) },
    ]);
    expect(garbage[0]?.swap.valid).toBe(false);
  });
});

describe("cashback claims", () => {
  it("curve claim: claim_cashback with the user not signing (reference A.7)", async () => {
    const user = key(1);
    const ixs = await buildClaimCurveCashback(user);
    expect(ixs).toHaveLength(1);
    expect(ixs[0]?.programId).toEqual(LAUNCH_PROGRAM_ID);
    expect(Buffer.from(ixs[0]!.data).toString("hex")).toBe("253a237ebe35e4c5");
    expect(flags(ixs[0]!)).toEqual([
      [user.toBase58(), false, true],
      [launchUserVolumeAccumulator(user).toBase58(), false, true],
      [SystemProgram.programId.toBase58(), false, false],
      [LAUNCH_EVENT_AUTHORITY.toBase58(), false, false],
      [LAUNCH_PROGRAM_ID.toBase58(), false, false],
    ]);
  });

  it("swap claim: create the WSOL ATA, claim into it, close it to unwrap", async () => {
    const user = key(1);
    const userWsol = associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID);
    const [create, claim, close] = await buildClaimSwapCashback(user);
    expect(Buffer.from(create!.data).toString("hex")).toBe("01"); // idempotent
    expect(create!.keys[1]?.pubkey).toEqual(userWsol);
    expect(claim!.programId).toEqual(LAUNCH_SWAP_PROGRAM_ID);
    expect(Buffer.from(claim!.data).toString("hex")).toBe("253a237ebe35e4c5");
    expect(flags(claim!)).toEqual([
      [user.toBase58(), false, true],
      [swapUserVolumeAccumulator(user).toBase58(), false, true],
      [NATIVE_MINT.toBase58(), false, false],
      [TOKEN_PROGRAM_ID.toBase58(), false, false],
      [swapCashbackWsolAccount(user).toBase58(), false, true],
      [userWsol.toBase58(), false, true],
      [SystemProgram.programId.toBase58(), false, false],
      [SWAP_EVENT_AUTHORITY.toBase58(), false, false],
      [LAUNCH_SWAP_PROGRAM_ID.toBase58(), false, false],
    ]);
    expect(Buffer.from(close!.data).toString("hex")).toBe("09");
    expect(flags(close!)).toEqual([
      [userWsol.toBase58(), false, true],
      [user.toBase58(), false, true],
      [user.toBase58(), true, false],
    ]);
  });
});
