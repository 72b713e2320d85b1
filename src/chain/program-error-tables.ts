/**
 * Error tables of the built-in programs a trade calls (issue 22: an error is named after the program that
 * raised it). The numbering is each program's public error enum: SystemError, TokenError (SPL Token; Token-2022
 * keeps the same codes and adds its own after 19) and AssociatedTokenAccountError.
 */
import { formatLamportsAsSol } from "../core/amounts.js";

const SYSTEM: Record<number, string> = {
  0: "AccountAlreadyInUse",
  1: "ResultWithNegativeLamports",
  2: "InvalidProgramId",
  3: "InvalidAccountDataLength",
  4: "MaxSeedLengthExceeded",
  5: "AddressWithSeedMismatch",
  6: "NonceNoRecentBlockhashes",
  7: "NonceBlockhashNotExpired",
  8: "NonceUnexpectedBlockhashValue",
};

const TOKEN: Record<number, string> = {
  0: "NotRentExempt",
  1: "InsufficientFunds",
  2: "InvalidMint",
  3: "MintMismatch",
  4: "OwnerMismatch",
  5: "FixedSupply",
  6: "AlreadyInUse",
  7: "InvalidNumberOfProvidedSigners",
  8: "InvalidNumberOfRequiredSigners",
  9: "UninitializedState",
  10: "NativeNotSupported",
  11: "NonNativeHasBalance",
  12: "InvalidInstruction",
  13: "InvalidState",
  14: "Overflow",
  15: "AuthorityTypeNotSupported",
  16: "MintCannotFreeze",
  17: "AccountFrozen",
  18: "MintDecimalsMismatch",
  19: "NonNativeNotSupported",
};

const TOKEN_2022: Record<number, string> = {
  ...TOKEN,
  20: "ExtensionTypeMismatch",
  21: "ExtensionBaseMismatch",
  22: "ExtensionAlreadyInitialized",
};

const ASSOCIATED_TOKEN: Record<number, string> = { 0: "InvalidOwner" };

/** One built-in program's label and error names by code. */
export interface BuiltinErrorTable {
  programId: string;
  label: string;
  names: Record<number, string>;
}

export const BUILTIN_PROGRAM_ERRORS: readonly BuiltinErrorTable[] = [
  { programId: "11111111111111111111111111111111", label: "system", names: SYSTEM },
  { programId: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", label: "token", names: TOKEN },
  { programId: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PE9aD9AfenWHS6p", label: "token-2022", names: TOKEN_2022 },
  {
    programId: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
    label: "associated token",
    names: ASSOCIATED_TOKEN,
  },
];

/**
 * The System program's transfer failure in plain words, from its log line
 * `Transfer: insufficient lamports <has>, need <need>`: "insufficient SOL: the payer has X SOL, needs Y SOL".
 */
export function insufficientLamportsMessage(logs: readonly string[] | null | undefined): string | undefined {
  for (const l of logs ?? []) {
    const m = /Transfer: insufficient lamports (\d+), need (\d+)/.exec(l);
    if (m) {
      return `insufficient SOL: the account has ${formatLamportsAsSol(BigInt(m[1]!))} SOL, this transfer needs ${formatLamportsAsSol(BigInt(m[2]!))} SOL`;
    }
  }
  return undefined;
}
