/**
 * The seam between the localnet's ledger (LiteSVM + slot clock + transaction executor) and the
 * TypeScript emulations of the two launch programs. The ledger owns accounts and atomicity; a program
 * emulation only reads and writes accounts through `LedgerAccess` and throws `ProgramFailure` to fail.
 */
import type { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";

/** One account as the ledger stores it. */
export interface AccountState {
  lamports: bigint;
  data: Uint8Array;
  owner: PublicKey;
  executable: boolean;
}

/** An account as referenced by the executing instruction (flags as in the transaction message). */
export interface InstructionAccount {
  pubkey: PublicKey;
  isSigner: boolean;
  isWritable: boolean;
}

/** What an emulated program may do to the ledger while one instruction executes. */
export interface LedgerAccess {
  /** The account, or null when it does not exist (zero lamports and no data count as missing). */
  getAccount(pubkey: PublicKey): AccountState | null;
  /** Writes an account directly (program-owned state the emulation owns: curves, pools, accumulators). */
  setAccount(pubkey: PublicKey, account: AccountState): void;
  /**
   * Runs a real instruction (System, SPL Token, Token-2022, Associated Token Account) inside LiteSVM,
   * as the real program would by CPI; signer flags on its keys are honoured without signatures (PDA
   * signing). Throws ProgramFailure when the instruction fails; the ledger's transaction then rolls back.
   */
  invoke(ix: TransactionInstruction): void;
  /** Rent-exempt minimum for an account of `dataLen` bytes. */
  rentExemptMinimum(dataLen: number): bigint;
  /** Current slot and unix timestamp of the localnet clock. */
  clock(): { slot: bigint; unixTimestamp: bigint };
}

/** Everything one emulated instruction sees. */
export interface InstructionContext {
  programId: PublicKey;
  accounts: InstructionAccount[];
  data: Uint8Array;
  ledger: LedgerAccess;
  /** Appends a program log line (e.g. "Program log: Instruction: Buy", "Program data: <base64>"). */
  log(line: string): void;
}

/**
 * A failure of an instruction. `code` is a custom program error number (reported as
 * `{"InstructionError":[index,{"Custom":code}]}`) or a built-in InstructionError name such as
 * "MissingRequiredSignature" / "InvalidAccountData" (reported as `{"InstructionError":[index,"<name>"]}`).
 */
export class ProgramFailure extends Error {
  constructor(
    readonly code: number | string,
    message: string,
  ) {
    super(message);
    this.name = "ProgramFailure";
  }
}

/** A program the localnet emulates in TypeScript. */
export interface EmulatedProgram {
  readonly programId: PublicKey;
  /** Executes one instruction; throws ProgramFailure to fail it (the ledger undoes every change). */
  execute(ctx: InstructionContext): void;
}

/**
 * The ledger as operator helpers (genesis installers, admin routes) see it: everything a program
 * sees, plus trusted transactions and direct funding.
 */
export interface AdminLedger extends LedgerAccess {
  /**
   * Runs `ixs` as one trusted atomic transaction: no signature checks, no fee, emulated programs
   * dispatched like client transactions. Throws (ProgramFailure or Error) on failure; nothing applies then.
   */
  execute(ixs: TransactionInstruction[]): void;
  /**
   * Runs `ixs` as a real client transaction signed and paid by the operator: recorded with its
   * signature and logs like any other. Throws when it does not land or fails.
   */
  submit(ixs: TransactionInstruction[]): { signature: string; logs: string[] };
  /** Credits lamports to an address (creates a system account when missing). */
  fund(pubkey: PublicKey, lamports: bigint): void;
  /** A funded localnet operator wallet. */
  operator: Keypair;
}
