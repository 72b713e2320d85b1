/**
 * What every instruction handler needs: state loads with the program's own owner checks, lamport
 * movements (System transfers from signing users, direct edits of program-owned accounts, as the real
 * program does) and token movements through the real Token-2022 program.
 */
import { createTransferCheckedInstruction } from "@solana/spl-token";
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { AccountState, LedgerAccess } from "../types.js";
import { LAUNCH_DECIMALS, UVA_ACCOUNT_SIZE } from "./constants.js";
import { anchorFail, type LogSink } from "./failures.js";
import {
  decodeCurve,
  decodeFeeConfig,
  decodeGlobal,
  decodeUva,
  emptyUva,
  encodeUva,
  isCurveData,
  isUvaData,
  type Curve,
  type FeeConfigState,
  type GlobalState,
  type UserVolumeAccumulator,
} from "./layouts.js";
import { userVolumeAccumulatorAddress } from "./pda.js";
import { FEE_PROGRAM_ID } from "./constants.js";

/** Handler context: ledger, log sink and the executing program id. */
export interface Exec {
  ledger: LedgerAccess;
  log: LogSink;
  programId: PublicKey;
}

/** An account `owner` (by default the executing program) owns, failing like Anchor when missing or foreign. */
export function loadOwned(x: Exec, address: PublicKey, name: string, owner = x.programId): AccountState {
  const acc = x.ledger.getAccount(address);
  if (!acc) anchorFail(x.log, "AccountNotInitialized", name);
  if (!acc.owner.equals(owner)) anchorFail(x.log, "AccountOwnedByWrongProgram", name);
  return acc;
}

/** Global, failing like Anchor when missing, foreign or not a Global. */
export function loadGlobal(x: Exec, address: PublicKey): GlobalState {
  const acc = loadOwned(x, address, "global");
  try {
    return decodeGlobal(acc.data);
  } catch {
    anchorFail(x.log, "AccountDiscriminatorMismatch", "global");
  }
}

/** The pump-fees FeeConfig. */
export function loadFeeConfig(x: Exec, address: PublicKey): FeeConfigState {
  const acc = loadOwned(x, address, "fee_config", FEE_PROGRAM_ID);
  return decodeFeeConfig(acc.data);
}

/** A bonding curve. */
export function loadCurve(x: Exec, address: PublicKey): { curve: Curve; data: Uint8Array } {
  const acc = loadOwned(x, address, "bonding_curve");
  if (!isCurveData(acc.data)) anchorFail(x.log, "AccountDiscriminatorMismatch", "bonding_curve");
  return { curve: decodeCurve(acc.data), data: acc.data };
}

/** Rewrites a program-owned account's data, keeping its lamports. */
export function writeData(x: Exec, address: PublicKey, data: Uint8Array): void {
  const acc = x.ledger.getAccount(address);
  if (!acc) throw new Error(`account ${address.toBase58()} vanished`);
  x.ledger.setAccount(address, { ...acc, data });
}

/** System transfer from a signing, system-owned `from` (what the real program does by CPI). */
export function transferFromUser(x: Exec, from: PublicKey, to: PublicKey, lamports: bigint): void {
  if (lamports <= 0n) return;
  x.ledger.invoke(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports }));
}

/** Moves lamports out of a program-owned account by direct edit (the program owns it). */
export function moveFromProgramAccount(x: Exec, from: PublicKey, to: PublicKey, lamports: bigint): void {
  if (lamports <= 0n) return;
  const src = x.ledger.getAccount(from);
  if (!src || src.lamports < lamports) throw new Error(`program account ${from.toBase58()} lacks lamports`);
  x.ledger.setAccount(from, { ...src, lamports: src.lamports - lamports });
  const dst = x.ledger.getAccount(to);
  x.ledger.setAccount(
    to,
    dst
      ? { ...dst, lamports: dst.lamports + lamports }
      : { lamports, data: new Uint8Array(0), owner: SystemProgram.programId, executable: false },
  );
}

/**
 * Creates a program-owned account at `address`: `payer` funds its rent by System transfer, then the
 * account is assigned to the program with `data` (the real program does create_account by CPI).
 */
export function createProgramAccount(x: Exec, payer: PublicKey, address: PublicKey, data: Uint8Array): void {
  const existing = x.ledger.getAccount(address);
  const rent = x.ledger.rentExemptMinimum(data.length);
  const have = existing?.lamports ?? 0n;
  transferFromUser(x, payer, address, rent > have ? rent - have : 0n);
  const funded = x.ledger.getAccount(address);
  x.ledger.setAccount(address, {
    lamports: funded?.lamports ?? 0n,
    data,
    owner: x.programId,
    executable: false,
  });
}

/** The user's pump UVA, created (137 bytes, rent from `payer`) when missing. */
export function ensureUva(x: Exec, user: PublicKey, payer: PublicKey): UserVolumeAccumulator {
  const address = userVolumeAccumulatorAddress(user);
  const acc = x.ledger.getAccount(address);
  if (acc && acc.owner.equals(x.programId) && isUvaData(acc.data)) return decodeUva(acc.data);
  if (acc && !acc.owner.equals(SystemProgram.programId))
    anchorFail(x.log, "AccountOwnedByWrongProgram", "user_volume_accumulator");
  const uva = emptyUva(user);
  createProgramAccount(x, payer, address, encodeUva(uva));
  return uva;
}

/** Writes the user's UVA record back. */
export function saveUva(x: Exec, user: PublicKey, uva: UserVolumeAccumulator): void {
  const address = userVolumeAccumulatorAddress(user);
  const acc = x.ledger.getAccount(address);
  if (!acc) throw new Error("user volume accumulator missing");
  x.ledger.setAccount(address, { ...acc, data: encodeUva(uva, acc.data) });
}

/** Real Token-2022 / SPL transfer_checked inside the ledger (`owner` signs: a user or the curve PDA). */
export function transferTokens(
  x: Exec,
  a: {
    source: PublicKey;
    mint: PublicKey;
    destination: PublicKey;
    owner: PublicKey;
    amount: bigint;
    tokenProgram: PublicKey;
  },
): void {
  x.ledger.invoke(
    createTransferCheckedInstruction(
      a.source,
      a.mint,
      a.destination,
      a.owner,
      a.amount,
      LAUNCH_DECIMALS,
      [],
      a.tokenProgram,
    ),
  );
}

/** Reads mint and owner of a token account (first 64 bytes of every SPL / Token-2022 account). */
export function tokenAccountInfo(
  x: Exec,
  address: PublicKey,
): { mint: PublicKey; owner: PublicKey; programOwner: PublicKey } | null {
  const acc = x.ledger.getAccount(address);
  if (!acc || acc.data.length < 165) return null;
  return {
    mint: new PublicKey(acc.data.subarray(0, 32)),
    owner: new PublicKey(acc.data.subarray(32, 64)),
    programOwner: acc.owner,
  };
}

/** The rent-exempt minimum of a pump UVA. */
export function uvaRent(x: Exec): bigint {
  return x.ledger.rentExemptMinimum(UVA_ACCOUNT_SIZE);
}
