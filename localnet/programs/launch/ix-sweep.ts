/**
 * The curve's permissionless `sweep_protocol_fee` / `sweep_creator_fee` (SWEEP_FEES.md): pays the
 * fee kept on the curve by v3 trades to where a legacy trade would have paid it (a normal fee
 * recipient, a reserved one for mayhem coins; the creator vault of `bonding_curve.creator`), empties
 * the bucket and logs `SweepBondingCurveFeeEvent`. Nothing waiting: nothing happens. Works on
 * complete and migrated curves too (migration moves the reserves, not the waiting fees).
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import { namedAccounts } from "../upgrade/accounts.js";
import { SWEEP_BUCKET, sweepBondingCurveFeeLine } from "../upgrade/events.js";
import { upgradeSpec } from "../upgrade/instructions.js";
import { LAUNCH_PROGRAM_ID } from "./constants.js";
import { growCurve, readBuckets, writeBuckets } from "./curve-buckets.js";
import {
  loadCurve,
  loadGlobal,
  moveFromProgramAccount,
  transferFromUser,
  type Exec,
} from "./exec-support.js";
import { anchorFail, programFail } from "./failures.js";
import {
  associatedTokenAddress,
  creatorVaultAddress,
  curveAddress,
  EVENT_AUTHORITY_ADDRESS,
  GLOBAL_ADDRESS,
} from "./pda.js";

/** Which bucket a sweep pays out. */
export type SweepKind = "protocol" | "creator";

/** Executes `sweep_protocol_fee` or `sweep_creator_fee` on the curve. */
export function executeCurveSweep(x: Exec, accounts: InstructionAccount[], kind: SweepKind): void {
  const name = kind === "protocol" ? "sweep_protocol_fee" : "sweep_creator_fee";
  x.log(`Program log: Instruction: ${kind === "protocol" ? "SweepProtocolFee" : "SweepCreatorFee"}`);
  const a = namedAccounts(upgradeSpec("launch", name), accounts, (e, acc) => anchorFail(x.log, e, acc));
  const seeds = (given: PublicKey, expected: PublicKey, n: string) => {
    if (!given.equals(expected)) anchorFail(x.log, "ConstraintSeeds", n);
  };
  const mint = a.key("base_mint");
  const payer = a.key("payer");
  const curveKey = a.key("bonding_curve");
  const quoteMint = a.key("quote_mint");
  const quoteProgram = a.key("quote_token_program");
  seeds(a.key("global"), GLOBAL_ADDRESS, "global");
  seeds(curveKey, curveAddress(mint), "bonding_curve");
  seeds(
    a.key("associated_quote_bonding_curve"),
    associatedTokenAddress(curveKey, quoteMint, quoteProgram),
    "associated_quote_bonding_curve",
  );
  if (!a.key("associated_token_program").equals(ASSOCIATED_TOKEN_PROGRAM_ID))
    anchorFail(x.log, "InvalidProgramId", "associated_token_program");
  if (!a.key("system_program").equals(SystemProgram.programId))
    anchorFail(x.log, "InvalidProgramId", "system_program");
  seeds(a.key("event_authority"), EVENT_AUTHORITY_ADDRESS, "event_authority");
  if (!a.key("program").equals(LAUNCH_PROGRAM_ID)) anchorFail(x.log, "ConstraintAddress", "program");
  const global = loadGlobal(x, GLOBAL_ADDRESS);
  const { curve } = loadCurve(x, curveKey);
  if (!curve.quoteMint.equals(PublicKey.default))
    throw new Error("the localnet emulates SOL-paired curves only");
  if (!quoteMint.equals(NATIVE_MINT)) anchorFail(x.log, "ConstraintAddress", "quote_mint");
  if (!quoteProgram.equals(TOKEN_PROGRAM_ID)) anchorFail(x.log, "ConstraintAddress", "quote_token_program");

  const recipient = a.key("recipient");
  if (kind === "protocol") {
    const allowed = curve.isMayhemMode
      ? [global.reservedFeeRecipient, ...global.reservedFeeRecipients]
      : [global.feeRecipient, ...global.feeRecipients];
    if (!allowed.some((k) => k.equals(recipient)))
      programFail(x.log, 6000, "fee recipient not in Global list");
  } else {
    seeds(recipient, creatorVaultAddress(curve.creator), "recipient");
  }
  seeds(
    a.key("associated_quote_recipient"),
    associatedTokenAddress(recipient, quoteMint, quoteProgram),
    "associated_quote_recipient",
  );

  const data = growCurve(x, curveKey, payer);
  const buckets = readBuckets(data);
  const amount = kind === "protocol" ? buckets.protocolFees : buckets.creatorFee;
  if (amount === 0n) return;
  moveFromProgramAccount(x, curveKey, recipient, amount);
  if (kind === "creator") {
    // The vault is a system account and must stay rent-exempt: the payer tops it up when needed.
    const rent = x.ledger.rentExemptMinimum(0);
    const have = x.ledger.getAccount(recipient)?.lamports ?? 0n;
    if (have < rent) transferFromUser(x, payer, recipient, rent - have);
  }
  const emptied = kind === "protocol" ? { ...buckets, protocolFees: 0n } : { ...buckets, creatorFee: 0n };
  const acc = x.ledger.getAccount(curveKey)!;
  x.ledger.setAccount(curveKey, { ...acc, data: writeBuckets(acc.data, emptied) });
  x.log(
    sweepBondingCurveFeeLine({
      timestamp: x.ledger.clock().unixTimestamp,
      mint,
      bondingCurve: curveKey,
      quoteMint: curve.quoteMint,
      recipient,
      amount,
      bucket: SWEEP_BUCKET[kind],
    }),
  );
}
