/**
 * The batched cashback read for many wallets and its interpretation into the raw inputs of the pure
 * cashback calculation (lamports above rent of the launch accumulator, WSOL balance of the swap one).
 */
import type { PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "./spl-token.js";
import {
  LAUNCH_PROGRAM_ID,
  WSOL_MINT,
  launchUserVolumeAccumulator,
  swapCashbackWsolAccount,
  swapUserVolumeAccumulator,
} from "./programs.js";
import { assertAligned, lamportsOf, type ReadAccount, type ReadResult } from "./read-account.js";
import { decodeTokenAccount, toBuffer } from "./state.js";

/** The accounts of one wallet's cashback. */
export interface CashbackAccounts {
  wallet: PublicKey;
  launchUserVolumeAccumulator: PublicKey;
  launchswapUserVolumeAccumulator: PublicKey;
  /** ATA(swap accumulator, WSOL): holds the swap cashback. */
  launchswapWsolAta: PublicKey;
}

/** Addresses of one batched read for all wallets (two per wallet, wallet order). */
export interface CashbackReadPlan {
  wallets: CashbackAccounts[];
  addresses: PublicKey[];
}

/** Raw inputs of one wallet's cashback. */
export interface CashbackRead extends CashbackAccounts {
  /** The two accounts as read (null when missing), for callers that judge them themselves. */
  raw: { launch: ReadAccount | null; swap: ReadAccount | null };
  launch: {
    exists: boolean;
    lamports: bigint;
    /** Data length: the rent-exempt minimum the claim leaves behind is computed for it. */
    dataLength: number;
    /** False when the account exists but the launch program does not own it (the spec's 502). */
    ownedByLaunch: boolean;
  };
  swap: {
    exists: boolean;
    /** WSOL balance of the accumulator's token account (0 when missing or invalid). */
    amount: bigint;
    /** False when the account exists but is not an SPL WSOL account owned by the swap accumulator (the spec's 502). */
    valid: boolean;
  };
}

/** The addresses for the cashback of `wallets` (deduplicate first; the RPC client splits reads over 100 keys). */
export function cashbackReadPlan(wallets: readonly PublicKey[]): CashbackReadPlan {
  const entries = wallets.map((wallet) => ({
    wallet,
    launchUserVolumeAccumulator: launchUserVolumeAccumulator(wallet),
    launchswapUserVolumeAccumulator: swapUserVolumeAccumulator(wallet),
    launchswapWsolAta: swapCashbackWsolAccount(wallet),
  }));
  return {
    wallets: entries,
    addresses: entries.flatMap((e) => [e.launchUserVolumeAccumulator, e.launchswapWsolAta]),
  };
}

/** Turns the batched read into per-wallet raw cashback inputs (no validation verdicts beyond the flags). */
export function interpretCashbackRead(plan: CashbackReadPlan, accounts: ReadResult): CashbackRead[] {
  assertAligned(plan.addresses, accounts);
  return plan.wallets.map((entry, i) => {
    const uva = accounts[2 * i] ?? null;
    const wsol = accounts[2 * i + 1] ?? null;
    return {
      ...entry,
      raw: { launch: uva, swap: wsol },
      launch: {
        exists: uva !== null,
        lamports: lamportsOf(uva),
        dataLength: uva === null ? 0 : toBuffer(uva.data).length,
        ownedByLaunch: uva === null || uva.owner.equals(LAUNCH_PROGRAM_ID),
      },
      swap: swapCashback(entry, wsol),
    };
  });
}

function swapCashback(entry: CashbackAccounts, account: ReadResult[number]): CashbackRead["swap"] {
  if (account === null) return { exists: false, amount: 0n, valid: true };
  if (!account.owner.equals(TOKEN_PROGRAM_ID)) return { exists: true, amount: 0n, valid: false };
  try {
    const token = decodeTokenAccount(account.data, TOKEN_PROGRAM_ID);
    const valid = token.mint.equals(WSOL_MINT) && token.owner.equals(entry.launchswapUserVolumeAccumulator);
    return { exists: true, amount: valid ? token.amount : 0n, valid };
  } catch {
    return { exists: true, amount: 0n, valid: false };
  }
}
