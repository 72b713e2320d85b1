/**
 * Transaction errors as the official RPC serialises them (externally tagged `TransactionError`),
 * and the mapping from LiteSVM's error objects to that JSON.
 */
import { ProgramFailure } from "../programs/types.js";

/** An `InstructionError` payload: a built-in name, a custom code, or a Borsh IO message. */
export type InstructionErrorJson = string | { Custom: number } | { BorshIoError: string };

/** `TransactionError` JSON, e.g. "BlockhashNotFound" or {"InstructionError":[2,{"Custom":6004}]}. */
export type TransactionErrorJson =
  | string
  | { InstructionError: [number, InstructionErrorJson] }
  | { DuplicateInstruction: number }
  | { InsufficientFundsForRent: { account_index: number } };

/** A transaction refused before execution (never lands, no fee): bad signature, unknown blockhash, ... */
export class TransactionRejected extends Error {
  constructor(
    readonly err: TransactionErrorJson,
    message: string,
  ) {
    super(message);
    this.name = "TransactionRejected";
  }
}

// Order of LiteSVM's (= solana-sdk's) fieldless enums; the numeric values index these arrays.
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
];

const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];

/** Maps a LiteSVM instruction error (enum number or class instance) to its JSON form. */
function instructionErrorJson(e: unknown): InstructionErrorJson {
  if (typeof e === "number") return INSTRUCTION_ERRORS[e] ?? "GenericError";
  if (e !== null && typeof e === "object") {
    if ("code" in e && typeof e.code === "number") return { Custom: e.code };
    if ("msg" in e && typeof e.msg === "string") return { BorshIoError: e.msg };
  }
  return "GenericError";
}

/**
 * Maps the error of a LiteSVM-internal one-instruction transaction to the instruction error of
 * the client instruction it ran for (a non-instruction error is reported as the nearest instruction error).
 */
export function internalErrorToInstructionError(e: unknown): InstructionErrorJson {
  if (typeof e === "number") {
    const name = TRANSACTION_ERRORS[e];
    if (name === "ProgramAccountNotFound" || name === "InvalidProgramForExecution")
      return "UnsupportedProgramId";
    if (name === "AccountNotFound") return "MissingAccount";
    return "GenericError";
  }
  if (e !== null && typeof e === "object") {
    if ("index" in e && "err" in e && typeof e.err === "function") {
      return instructionErrorJson((e.err as () => unknown).call(e));
    }
    if ("accountIndex" in e) return "AccountNotRentExempt";
  }
  return "GenericError";
}

/** The ProgramFailure an emulated program sees when an invoked (CPI) instruction fails. */
export function instructionErrorToFailure(err: InstructionErrorJson, detail: string): ProgramFailure {
  if (typeof err === "string") return new ProgramFailure(err, detail);
  if ("Custom" in err) return new ProgramFailure(err.Custom, detail);
  return new ProgramFailure("BorshIoError", `${err.BorshIoError}: ${detail}`);
}

/** The JSON form of a ProgramFailure code. */
export function failureToInstructionError(code: number | string): InstructionErrorJson {
  return typeof code === "number" ? { Custom: code } : code;
}

const FAILED_LOG_TEXT: Record<string, string> = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  ArithmeticOverflow: "Program arithmetic overflowed",
  IllegalOwner: "Provided owner is not allowed",
  InvalidAccountOwner: "Invalid account owner",
};

/** The text after "Program <id> failed: " in a failure log line, as the validator prints it. */
export function failedLogText(err: InstructionErrorJson): string {
  if (typeof err === "string") return FAILED_LOG_TEXT[err] ?? err;
  if ("Custom" in err) return `custom program error: 0x${err.Custom.toString(16)}`;
  return `Failed to serialize or deserialize account data: ${err.BorshIoError}`;
}

/** The human message of a transaction error, as in "Transaction simulation failed: <message>". */
export function transactionErrorMessage(err: TransactionErrorJson): string {
  if (typeof err === "string") return TRANSACTION_ERROR_TEXT[err] ?? err;
  if ("InstructionError" in err) {
    const [index, ie] = err.InstructionError;
    return `Error processing Instruction ${index}: ${failedLogText(ie)}`;
  }
  if ("DuplicateInstruction" in err) {
    return `Transaction contains a duplicate instruction (${err.DuplicateInstruction}) that is not allowed`;
  }
  return `Transaction results in an account (${err.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
}

const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InsufficientFundsForFee: "Insufficient funds for fee",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  SignatureFailure: "Transaction did not pass signature verification",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableIndex: "Transaction address table lookup uses an invalid index",
  UnsupportedVersion: "Transaction version is unsupported",
};
