/**
 * Runs one instruction for the executor: compute-budget instructions are logged only, emulated
 * programs are dispatched to their TypeScript implementation, everything else runs inside LiteSVM
 * as its own internal transaction (touching the journal first so it can be undone).
 */
import type { LiteSVM } from "litesvm";
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { EmulatedProgram, LedgerAccess } from "../programs/types.js";
import { ProgramFailure } from "../programs/types.js";
import type { AccountJournal } from "./journal.js";
import { runInternal } from "./svm-accounts.js";
import type { InstructionErrorJson } from "./tx-errors.js";
import {
  failedLogText,
  failureToInstructionError,
  instructionErrorToFailure,
  internalErrorToInstructionError,
} from "./tx-errors.js";
import type { ResolvedInstruction } from "./wire.js";
import { COMPUTE_BUDGET_PROGRAM_ID } from "./wire.js";

/** Nominal compute units an emulated program instruction consumes (reported, not enforced). */
export const EMULATED_INSTRUCTION_UNITS = 40_000n;
const COMPUTE_BUDGET_UNITS = 150n;

/** A failed instruction inside the executor. */
export class InstructionFailure extends Error {
  constructor(readonly err: InstructionErrorJson) {
    super("instruction failed");
  }
}

/**
 * An instruction left an account below rent exemption: on mainnet a transaction-level
 * `InsufficientFundsForRent` naming the account, so it bypasses instruction-error handling.
 */
export class RentFailure extends Error {
  constructor(readonly account: PublicKey) {
    super(`account ${account.toBase58()} would be left with insufficient funds for rent`);
  }
}

/** The account index of LiteSVM's InsufficientFundsForRent error, or null for other errors. */
function rentAccountIndex(e: unknown): number | null {
  if (e !== null && typeof e === "object" && "accountIndex" in e && typeof e.accountIndex === "number") {
    return e.accountIndex;
  }
  return null;
}

/** What the runner needs from the ledger. */
export interface RunnerDeps {
  svm: LiteSVM;
  sponsor: PublicKey;
  programs: Map<string, EmulatedProgram>;
  journal: AccountJournal;
  /** Account access for emulated programs (writes journaled by the ledger). */
  access: Omit<LedgerAccess, "invoke">;
}

/** Converts a web3.js instruction to the executor's shape. */
export function toResolved(ix: TransactionInstruction): ResolvedInstruction {
  return { programId: ix.programId, accounts: ix.keys, data: new Uint8Array(ix.data) };
}

/** Executes instructions; see the module comment. */
export class InstructionRunner {
  constructor(private readonly d: RunnerDeps) {}

  /** Runs a CPI on behalf of an emulated program; failures become ProgramFailure. */
  invokeAt(ix: TransactionInstruction, logs: string[], depth: number): void {
    try {
      this.run(toResolved(ix), logs, depth);
    } catch (e) {
      if (e instanceof InstructionFailure) {
        throw instructionErrorToFailure(e.err, `invoked ${ix.programId.toBase58()} failed`);
      }
      throw e;
    }
  }

  /** Runs one instruction, appending its log lines; returns compute units; throws InstructionFailure or RentFailure. */
  run(ix: ResolvedInstruction, logs: string[], depth: number): bigint {
    const id = ix.programId.toBase58();
    if (id === COMPUTE_BUDGET_PROGRAM_ID) {
      logs.push(`Program ${id} invoke [${depth}]`, `Program ${id} success`);
      return COMPUTE_BUDGET_UNITS;
    }
    const program = this.d.programs.get(id);
    if (program !== undefined) return this.runEmulated(program, ix, logs, depth);
    for (const a of ix.accounts) this.d.journal.touch(a.pubkey);
    const run = runInternal(
      this.d.svm,
      this.d.sponsor,
      new TransactionInstruction({ programId: ix.programId, keys: ix.accounts, data: Buffer.from(ix.data) }),
    );
    for (const line of run.logs) {
      logs.push(line.replace(/ invoke \[(\d+)\]$/, (_m, d: string) => ` invoke [${Number(d) + depth - 1}]`));
    }
    if (!run.ok) {
      const rentIndex = rentAccountIndex(run.error);
      if (rentIndex !== null && run.accountKeys[rentIndex] !== undefined) {
        throw new RentFailure(run.accountKeys[rentIndex]);
      }
      const err = internalErrorToInstructionError(run.error);
      if (run.logs.length === 0) logs.push(`Program ${id} failed: ${failedLogText(err)}`);
      throw new InstructionFailure(err);
    }
    return run.unitsConsumed;
  }

  private runEmulated(
    program: EmulatedProgram,
    ix: ResolvedInstruction,
    logs: string[],
    depth: number,
  ): bigint {
    const id = ix.programId.toBase58();
    logs.push(`Program ${id} invoke [${depth}]`);
    const access: LedgerAccess = {
      ...this.d.access,
      invoke: (inner) => this.invokeAt(inner, logs, depth + 1),
    };
    let err: InstructionErrorJson | null = null;
    try {
      program.execute({
        programId: ix.programId,
        accounts: ix.accounts,
        data: ix.data,
        ledger: access,
        log: (line) => logs.push(line),
      });
    } catch (e) {
      if (e instanceof RentFailure) {
        logs.push(
          `Program ${id} consumed ${EMULATED_INSTRUCTION_UNITS} of 1400000 compute units`,
          `Program ${id} success`,
        );
        throw e;
      }
      if (e instanceof ProgramFailure) {
        // The emulation logs its own error lines (AnchorError ...), as the real program does.
        err = failureToInstructionError(e.code);
      } else {
        // A bug in an emulation must fail the transaction, not the server.
        logs.push(`Program log: panicked: ${(e as Error).message}`);
        err = "ProgramFailedToComplete";
      }
    }
    logs.push(`Program ${id} consumed ${EMULATED_INSTRUCTION_UNITS} of 1400000 compute units`);
    if (err !== null) {
      logs.push(`Program ${id} failed: ${failedLogText(err)}`);
      throw new InstructionFailure(err);
    }
    logs.push(`Program ${id} success`);
    return EMULATED_INSTRUCTION_UNITS;
  }
}
