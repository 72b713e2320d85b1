/**
 * Finds the `Program data:` lines of a transaction's logs and the program that emitted each one, by
 * following the runtime's `Program <id> invoke [n]` / `success` / `failed` lines (an event logged inside
 * a CPI belongs to the invoked program, not to the outer one).
 */

/** One `Program data:` payload and the program whose invocation logged it. */
export interface ProgramData {
  programId: string;
  /** The base64 payload (Anchor: 8-byte event discriminator then the borsh body). */
  base64: string;
}

const INVOKE = /^Program (\S+) invoke \[\d+\]$/;
const END = /^Program (\S+) (success|failed\b.*)$/;
const DATA = "Program data: ";

/** The `Program data:` payloads of `logs` emitted by any of `programIds`, in log order. */
export function programDataLines(logs: readonly string[], programIds: ReadonlySet<string>): ProgramData[] {
  const stack: string[] = [];
  const out: ProgramData[] = [];
  for (const line of logs) {
    const invoke = INVOKE.exec(line);
    if (invoke) {
      stack.push(invoke[1]!);
      continue;
    }
    if (END.test(line)) {
      stack.pop();
      continue;
    }
    if (!line.startsWith(DATA)) continue;
    const programId = stack[stack.length - 1];
    if (programId !== undefined && programIds.has(programId))
      out.push({ programId, base64: line.slice(DATA.length).trim() });
  }
  return out;
}
