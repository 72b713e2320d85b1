/**
 * How the emulated program fails: an Anchor-style log line, then a ProgramFailure carrying the custom
 * error number (program errors from the IDL, Anchor framework errors 1xx–3xxx) or a built-in
 * InstructionError name.
 */
import { launchSdk } from "../../../src/launch/sdk.js";
import { ProgramFailure } from "../types.js";

/** Anchor framework errors the account checks raise (numbers and messages as in anchor-lang). */
export const ANCHOR_ERRORS = {
  InstructionFallbackNotFound: [101, "Fallback functions are not supported"],
  InstructionDidNotDeserialize: [102, "The program could not deserialize the given instruction"],
  ConstraintMut: [2000, "A mut constraint was violated"],
  ConstraintSeeds: [2006, "A seeds constraint was violated"],
  ConstraintAddress: [2012, "An address constraint was violated"],
  ConstraintTokenMint: [2014, "A token mint constraint was violated"],
  ConstraintTokenOwner: [2015, "A token owner constraint was violated"],
  AccountDiscriminatorMismatch: [3002, "Account discriminator did not match what was expected"],
  AccountNotEnoughKeys: [3005, "Not enough account keys given to the instruction"],
  AccountOwnedByWrongProgram: [3007, "The given account is owned by a different program than expected"],
  InvalidProgramId: [3008, "Program ID was not as expected"],
  AccountNotSigner: [3010, "The given account did not sign"],
  AccountNotInitialized: [3012, "The program expected this account to be already initialized"],
} as const satisfies Record<string, readonly [number, string]>;

/** Errors the October 2026 upgrade added (idl/pump.json), absent from the installed SDK's IDL. */
const UPGRADE_ERRORS: [number, { name: string; msg: string }][] = [
  [6094, { name: "CashbackCoinNotSupported", msg: "Cashback coins are not supported by this instruction" }],
  [6095, { name: "CreatorFeesNotSwept", msg: "Creator fees must be swept first" }],
];

const programErrors = new Map<number, { name: string; msg: string }>([
  ...launchSdk.pumpIdl.errors.map((e): [number, { name: string; msg: string }] => [
    e.code,
    { name: e.name, msg: e.msg ?? e.name },
  ]),
  ...UPGRADE_ERRORS,
]);

/** Collects log lines for the executing instruction. */
export type LogSink = (line: string) => void;

/** Fails with an Anchor framework error attributed to `account` (logged like anchor-lang does). */
export function anchorFail(log: LogSink, error: keyof typeof ANCHOR_ERRORS, account?: string): never {
  const [code, msg] = ANCHOR_ERRORS[error];
  const cause = account ? `AnchorError caused by account: ${account}.` : "AnchorError occurred.";
  log(`Program log: ${cause} Error Code: ${error}. Error Number: ${code}. Error Message: ${msg}.`);
  throw new ProgramFailure(code, `${error}${account ? ` (${account})` : ""}: ${msg}`);
}

/** Fails with one of the program's own IDL errors (6000+). */
export function programFail(log: LogSink, code: number, detail?: string): never {
  const e = programErrors.get(code) ?? { name: `Custom${code}`, msg: detail ?? "program error" };
  log(
    `Program log: AnchorError occurred. Error Code: ${e.name}. Error Number: ${code}. Error Message: ${e.msg}.`,
  );
  throw new ProgramFailure(code, `${e.name}: ${e.msg}${detail ? ` (${detail})` : ""}`);
}

/** Fails with a built-in InstructionError (e.g. "IncorrectProgramId"). */
export function builtinFail(log: LogSink, name: string, detail: string): never {
  log(`Program log: ${detail}`);
  throw new ProgramFailure(name, `${name}: ${detail}`);
}
