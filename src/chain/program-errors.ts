import { VersionedTransaction } from "@solana/web3.js";
import { LAUNCH_FEE_PROGRAM_ID, LAUNCH_PROGRAM_ID, LAUNCH_SWAP_PROGRAM_ID } from "../launch/programs.js";
import { launchSdk, launchSwapSdk } from "../launch/sdk.js";
import { isObject } from "./json-rpc.js";
import { BUILTIN_PROGRAM_ERRORS, insufficientLamportsMessage } from "./program-error-tables.js";

/** A custom program error resolved to its IDL name. */
export interface ProgramError {
  /** "launch", "launchswap", or the program id when it is neither. */
  program: string;
  /** Base58 program id. */
  programId: string;
  code: number;
  /** IDL (or Anchor framework) name; null when the code is unknown. */
  name: string | null;
  /** Index of the failing instruction in the transaction. */
  instructionIndex: number;
  /** A plain-words reading of the failure when the log says more than the code (e.g. lamports short). */
  message?: string;
}

interface IdlError {
  code: number;
  name: string;
}

// Anchor framework codes that wrong accounts most often produce (anchor-lang error.rs numbering).
const ANCHOR_ERRORS: Record<number, string> = {
  100: "InstructionMissing",
  101: "InstructionFallbackNotFound",
  102: "InstructionDidNotDeserialize",
  2000: "ConstraintMut",
  2001: "ConstraintHasOne",
  2002: "ConstraintSigner",
  2003: "ConstraintRaw",
  2004: "ConstraintOwner",
  2006: "ConstraintSeeds",
  2011: "ConstraintAssociated",
  2012: "ConstraintAssociatedInit",
  2014: "ConstraintTokenMint",
  2015: "ConstraintTokenOwner",
  3001: "AccountDiscriminatorNotFound",
  3002: "AccountDiscriminatorMismatch",
  3003: "AccountDidNotDeserialize",
  3005: "AccountNotEnoughKeys",
  3006: "AccountNotMutable",
  3007: "AccountOwnedByWrongProgram",
  3008: "InvalidProgramId",
  3010: "AccountNotSigner",
  3011: "AccountNotSystemOwned",
  3012: "AccountNotInitialized",
  3014: "AccountNotAssociatedTokenAccount",
};

function idlIndex(errors: readonly IdlError[] | undefined): Map<number, string> {
  // Anchor's Program turns IDL names camelCase; the programs' own (and the other IDLs') names are PascalCase.
  return new Map((errors ?? []).map((e) => [e.code, e.name.charAt(0).toUpperCase() + e.name.slice(1)]));
}

/** The fee program's error table, from the IDL the launch SDK ships (reached through its offline program). */
function feeProgramErrors(): readonly IdlError[] {
  try {
    // Offline: the program object only carries the IDL; no connection is ever used (the SDK does the same).
    const program = launchSdk.getPumpFeeProgram(
      null as unknown as Parameters<typeof launchSdk.getPumpFeeProgram>[0],
    );
    return (program.idl.errors ?? []) as readonly IdlError[];
  } catch {
    return [];
  }
}

// Built lazily on first use and kept: the IDLs are static data shipped with the SDKs.
let programTables: Map<string, { label: string; names: Map<number, string> }> | undefined;
function tables() {
  programTables ??= new Map([
    ...BUILTIN_PROGRAM_ERRORS.map(
      (t) =>
        [
          t.programId,
          { label: t.label, names: new Map(Object.entries(t.names).map(([c, n]) => [Number(c), n])) },
        ] as const,
    ),
    [LAUNCH_FEE_PROGRAM_ID.toBase58(), { label: "fee", names: idlIndex(feeProgramErrors()) }],
    [
      LAUNCH_PROGRAM_ID.toBase58(),
      { label: "launch", names: idlIndex(launchSdk.pumpIdl.errors as readonly IdlError[]) },
    ],
    [
      LAUNCH_SWAP_PROGRAM_ID.toBase58(),
      { label: "launchswap", names: idlIndex(launchSwapSdk.pumpAmmJson.errors as readonly IdlError[]) },
    ],
  ]);
  return programTables;
}

/** `{ instructionIndex, code }` of a TransactionError JSON `{"InstructionError":[i,{"Custom":n}]}`, else null. */
export function customErrorOf(err: unknown): { instructionIndex: number; code: number } | null {
  if (!isObject(err) || !Array.isArray(err.InstructionError)) return null;
  const [index, inner] = err.InstructionError as unknown[];
  if (typeof index !== "number" || !isObject(inner) || typeof inner.Custom !== "number") return null;
  return { instructionIndex: index, code: inner.Custom };
}

/**
 * Resolves a transaction error to the failing program and the IDL name of its custom code, using the signed
 * transaction to find which program the failing instruction called. Null when the error is not custom.
 */
export function decodeProgramError(
  err: unknown,
  wire: Uint8Array,
  logs?: readonly string[] | null,
): ProgramError | null {
  const custom = customErrorOf(err);
  if (!custom) return null;
  // The log names the program that raised the error, which is not the instruction's program when the error
  // came from a CPI (the System program's "insufficient lamports" inside a launch buy).
  const raised = failingProgramFromLogs(logs);
  if (raised !== undefined) return namedProgramError(custom, raised, logs);
  let programId = "unknown";
  try {
    const message = VersionedTransaction.deserialize(wire).message;
    const ix = message.compiledInstructions[custom.instructionIndex];
    const key = ix ? message.staticAccountKeys[ix.programIdIndex] : undefined;
    if (key) programId = key.toBase58();
  } catch {
    // Undecodable bytes: report the code without a program.
  }
  return namedProgramError(custom, programId, logs);
}

/**
 * The program that raised a failure: the FIRST "Program <id> failed" line (the innermost call fails first;
 * every caller above it then fails with the same error).
 */
function failingProgramFromLogs(logs: readonly string[] | null | undefined): string | undefined {
  for (const l of logs ?? []) {
    const id = /^Program (\w+) failed/.exec(l)?.[1];
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The same resolution when only the transaction's log is at hand (reconciliation has no signed bytes): the
 * failing program is the one whose "Program <id> failed" line the runtime wrote.
 */
export function decodeProgramErrorFromLogs(
  err: unknown,
  logs: readonly string[] | null,
): ProgramError | null {
  const custom = customErrorOf(err);
  if (!custom) return null;
  return namedProgramError(custom, failingProgramFromLogs(logs) ?? "unknown", logs);
}

function namedProgramError(
  custom: { instructionIndex: number; code: number },
  programId: string,
  logs?: readonly string[] | null,
): ProgramError {
  const table = tables().get(programId);
  const name = table?.names.get(custom.code) ?? (table ? (ANCHOR_ERRORS[custom.code] ?? null) : null);
  const message = insufficientLamportsMessage(logs);
  return {
    program: table?.label ?? programId,
    programId,
    code: custom.code,
    name,
    instructionIndex: custom.instructionIndex,
    ...(message !== undefined ? { message } : {}),
  };
}

/** The part of a program error an API body and an execution record carry. */
export function programErrorBody(p: Pick<ProgramError, "program" | "code" | "name" | "message">): {
  program: string;
  code: number;
  name: string | null;
  message?: string;
} {
  return {
    program: p.program,
    code: p.code,
    name: p.name,
    ...(p.message !== undefined ? { message: p.message } : {}),
  };
}

/** Launch BondingCurveComplete: the curve completed (a synthetic migration) and has not migrated yet. */
const BONDING_CURVE_COMPLETE = 6005;

/**
 * The fields a failure carries for its program error: `program_error`, and `state: "awaiting_migration"` when
 * the launch program refused the trade because the curve completed before it landed (6005).
 */
export function programErrorFields(p: Pick<ProgramError, "program" | "code" | "name" | "message">): {
  program_error: ReturnType<typeof programErrorBody>;
  state?: string;
} {
  const body = programErrorBody(p);
  return p.program === "launch" && p.code === BONDING_CURVE_COMPLETE
    ? { program_error: body, state: "awaiting_migration" }
    : { program_error: body };
}

const EXCERPT_LINES = 8;
const EXCERPT_LINE_CHARS = 200;

/**
 * The lines of a log that explain a failure: program log messages and failure lines, falling back to the
 * tail; at most 8 lines of at most 200 characters.
 */
export function logsExcerpt(logs: readonly string[] | null | undefined): string[] {
  if (!logs || logs.length === 0) return [];
  const telling = logs.filter((l) => /Program log:|failed|Error|error/.test(l));
  const chosen = (telling.length ? telling : logs).slice(-EXCERPT_LINES);
  return chosen.map((l) => (l.length > EXCERPT_LINE_CHARS ? `${l.slice(0, EXCERPT_LINE_CHARS - 1)}…` : l));
}

/** A short text for a transaction error: the IDL name when known, else the error JSON. */
export function describeTransactionError(err: unknown, programError: ProgramError | null): string {
  if (programError) {
    const name = programError.name ?? `custom error ${programError.code}`;
    if (programError.message !== undefined)
      return `${programError.message} (${programError.program} program ${name})`;
    return `${programError.program} program error ${programError.code} (${name}) in instruction ${programError.instructionIndex}`;
  }
  return typeof err === "string" ? err : JSON.stringify(err);
}
