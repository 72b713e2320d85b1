/** claim_cashback, init_user_volume_accumulator and extend_account (reference A.7, D.7). */
import type { InstructionAccount } from "../types.js";
import { acct, checkAccounts, idlInstruction } from "./account-checks.js";
import { CURVE_ACCOUNT_SIZE } from "./constants.js";
import { emitEvent } from "./events.js";
import {
  ensureUva,
  loadOwned,
  moveFromProgramAccount,
  saveUva,
  transferFromUser,
  type Exec,
} from "./exec-support.js";
import { anchorFail, programFail } from "./failures.js";
import { decodeUva, isCurveData, isUvaData } from "./layouts.js";

/** Pays the user's UVA lamports above rent to `user` (permissionless; zero claims succeed as no-ops). */
export function executeClaimCashback(x: Exec, accounts: InstructionAccount[]): void {
  x.log("Program log: Instruction: ClaimCashback");
  const checked = checkAccounts(idlInstruction("claim_cashback"), accounts, x.programId, x.ledger, x.log);
  const user = acct(checked, "user").pubkey;
  const uvaKey = acct(checked, "user_volume_accumulator").pubkey;
  const acc = loadOwned(x, uvaKey, "user_volume_accumulator");
  if (!isUvaData(acc.data)) anchorFail(x.log, "AccountDiscriminatorMismatch", "user_volume_accumulator");
  const uva = decodeUva(acc.data);
  const rent = x.ledger.rentExemptMinimum(acc.data.length);
  const amount = acc.lamports > rent ? acc.lamports - rent : 0n;
  moveFromProgramAccount(x, uvaKey, user, amount);
  const after = { ...uva, totalCashbackClaimed: uva.totalCashbackClaimed + amount };
  saveUva(x, user, after);
  emitEvent(x.log, "ClaimCashbackEvent", {
    user,
    amount,
    timestamp: x.ledger.clock().unixTimestamp,
    totalClaimed: after.totalCashbackClaimed,
    totalCashbackEarned: after.cashbackEarned,
  });
}

/** Creates `user`'s UVA paid by `payer` (fails if it exists, like Anchor `init`). */
export function executeInitUva(x: Exec, accounts: InstructionAccount[]): void {
  x.log("Program log: Instruction: InitUserVolumeAccumulator");
  const checked = checkAccounts(
    idlInstruction("init_user_volume_accumulator"),
    accounts,
    x.programId,
    x.ledger,
    x.log,
  );
  const payer = acct(checked, "payer").pubkey;
  const user = acct(checked, "user").pubkey;
  const existing = x.ledger.getAccount(acct(checked, "user_volume_accumulator").pubkey);
  if (existing && existing.owner.equals(x.programId)) programFail(x.log, 6001, "already initialized");
  ensureUva(x, user, payer);
  emitEvent(x.log, "InitUserVolumeAccumulatorEvent", {
    payer,
    user,
    timestamp: x.ledger.clock().unixTimestamp,
  });
}

/** Grows a bonding curve to 151 bytes (the only account kind the emulator extends), user paying rent. */
export function executeExtendAccount(x: Exec, accounts: InstructionAccount[]): void {
  x.log("Program log: Instruction: ExtendAccount");
  const checked = checkAccounts(idlInstruction("extend_account"), accounts, x.programId, x.ledger, x.log);
  const key = acct(checked, "account").pubkey;
  const user = acct(checked, "user").pubkey;
  const acc = loadOwned(x, key, "account");
  if (!isCurveData(acc.data)) programFail(x.log, 6010);
  if (acc.data.length >= CURVE_ACCOUNT_SIZE) programFail(x.log, 6009);
  const rent = x.ledger.rentExemptMinimum(CURVE_ACCOUNT_SIZE);
  transferFromUser(x, user, key, rent > acc.lamports ? rent - acc.lamports : 0n);
  const funded = x.ledger.getAccount(key)!;
  const data = new Uint8Array(CURVE_ACCOUNT_SIZE);
  data.set(acc.data);
  x.ledger.setAccount(key, { ...funded, data });
  emitEvent(x.log, "ExtendAccountEvent", {
    account: key,
    user,
    currentSize: BigInt(acc.data.length),
    newSize: BigInt(CURVE_ACCOUNT_SIZE),
    timestamp: x.ledger.clock().unixTimestamp,
  });
}
