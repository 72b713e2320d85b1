/**
 * Issue 22: what the CLI says about an execution and how it exits. Never "done" for a transaction that did not
 * land; the exit code tells scripts which of the three outcomes happened.
 */
import { LaserTradeError } from "@lasertrade/client";

/** Exit codes (README, "CLI exit codes"). */
export const EXIT = {
  /** Landed (confirmed), or sent with --no-confirm as asked, or a read command that answered. */
  ok: 0,
  /** Refused, failed on chain, a relay failure, a network error or a usage error. */
  failed: 1,
  /** Sent but not confirmed within the wait: it may still land; follow it with `lasertrade status <id>`. */
  unconfirmed: 3,
} as const;

/** The spec's 502 of a bundle accepted but not seen landed within the wait: not a failure, it may still land. */
export const BUNDLE_TIMED_OUT = "bundle confirmation timed out";

/**
 * A bundle's confirmation timeout as the unconfirmed answer it is (issue 30): its body carries the 200's fields
 * with `confirmed: false`, so the CLI shows and exits as for an unconfirmed trade (3). Undefined for any other
 * error.
 */
export function unconfirmedAnswer(e: unknown): Record<string, unknown> | undefined {
  if (e instanceof LaserTradeError && e.detail === BUNDLE_TIMED_OUT && e.body.confirmed === false)
    return e.body;
  return undefined;
}

/** The exit code of a command that failed with `e`: 3 for a bundle's confirmation timeout, else 1. */
export function exitCodeOfError(e: unknown): number {
  return e instanceof LaserTradeError && e.detail === BUNDLE_TIMED_OUT ? EXIT.unconfirmed : EXIT.failed;
}

/** One transaction of a result: its signature, whether it was confirmed, and its execution record. */
export interface SentTransaction {
  signature: string;
  confirmed: boolean;
  executionId: string | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * The transactions an execution answer reports: the top-level one (trade, create, transfer, split), each of
 * `transactions` (claims, consolidate), or a bundle's legs (one verdict for all, its first signature shown).
 */
export function sentTransactions(result: unknown): SentTransaction[] {
  if (!isRecord(result)) return [];
  if (Array.isArray(result.transactions)) return result.transactions.flatMap((t) => sentTransactions(t));
  const executionId = text(result.execution_id);
  const confirmed = result.confirmed === true;
  const signature =
    text(result.signature) ??
    (Array.isArray(result.results) && isRecord(result.results[0])
      ? text(result.results[0].signature)
      : undefined);
  return signature === undefined ? [] : [{ signature, confirmed, executionId }];
}

/** The phase lines printed once an execution answered: built, sent (signature), landed or not. */
export function phaseLines(result: unknown, confirm: boolean, seconds: number): string[] {
  const sent = sentTransactions(result);
  if (sent.length === 0) return [];
  const lines = ["✓ built and signed"];
  for (const t of sent) {
    lines.push(`✓ sent: ${t.signature}`);
    if (t.confirmed) lines.push(`✓ landed (confirmed) after ${seconds.toFixed(1)}s`);
    else if (confirm) lines.push(unconfirmedLine(t, seconds));
    else lines.push(`… not waiting for confirmation (--no-confirm)${followUp(t)}`);
  }
  return lines;
}

const followUp = (t: SentTransaction): string =>
  t.executionId !== undefined ? `, follow with \`lasertrade status ${t.executionId}\`` : "";

/** `sent, not confirmed within 30 s: <signature>, follow with \`lasertrade status <id>\``. */
export function unconfirmedLine(t: SentTransaction, seconds: number): string {
  return `sent, not confirmed within ${Math.round(seconds)} s: ${t.signature}${followUp(t)}`;
}

/** The exit code of an execution answer: unconfirmed when confirmation was asked and anything did not land. */
export function exitCodeOf(result: unknown, confirm: boolean): number {
  return confirm && sentTransactions(result).some((t) => !t.confirmed) ? EXIT.unconfirmed : EXIT.ok;
}

/**
 * Whether a failed execution may still land: only when something was sent and no one has said it failed
 * (a landed-with-error transaction, a bundle the relay reported failed and a 400 refusal certainly did not).
 */
export function mayStillLand(e: LaserTradeError): boolean {
  if (e.signature === undefined || e.status === 400) return false;
  if (e.detail.startsWith("transaction failed on chain")) return false;
  if (e.detail === "bundle failed") return false;
  if (e.detail === BUNDLE_TIMED_OUT) return true;
  return true;
}

const LOG_LINES = 8;

/**
 * The lines the CLI prints for an API error: code and detail (`error [trade.simulation_failed]: trade simulation
 * failed (HTTP 400)`), decoded program error, last program logs, what next.
 */
export function errorLines(e: LaserTradeError): string[] {
  const code = e.code !== undefined ? ` [${e.code}]` : "";
  const lines = [`error${code}: ${e.detail}${e.status > 0 ? ` (HTTP ${e.status})` : ""}`];
  const b = e.body;
  // Why, beside the spec's detail (a refused simulation, a failed bundle): the detail alone does not say.
  if (text(b.reason) !== undefined) lines.push(`reason: ${text(b.reason)}`);
  if (typeof b.index === "number") lines.push(`bundle leg: ${b.index}`);
  if (typeof b.failed_leg === "number") lines.push(`failed leg: ${b.failed_leg}`);
  const pe = isRecord(b.program_error) ? b.program_error : undefined;
  if (pe !== undefined) {
    const name = text(pe.name) ?? `custom error ${String(pe.code)}`;
    lines.push(`program error: ${String(pe.program)} ${name} (code ${String(pe.code)})`);
    if (text(pe.message) !== undefined) lines.push(`  ${text(pe.message)}`);
  }
  if (text(b.simulation_error) !== undefined) lines.push(`simulation: ${text(b.simulation_error)}`);
  const logs = Array.isArray(b.logs) ? b.logs.filter((l): l is string => typeof l === "string") : [];
  if (logs.length > 0)
    lines.push("program logs (last lines):", ...logs.slice(-LOG_LINES).map((l) => `  ${l}`));
  const id = text(b.execution_id);
  if (e.signature !== undefined) {
    lines.push(
      mayStillLand(e)
        ? `signature: ${e.signature} (it may still land: follow with \`lasertrade status ${id ?? e.signature}\`)`
        : `signature: ${e.signature}`,
    );
  } else if (id !== undefined) lines.push(`execution: ${id}`);
  return lines;
}

/** The exit code of `lasertrade status`: landed 0, failed or expired 1, still open (may land) 3. */
export function statusExitCode(status: string): number {
  if (status === "confirmed" || status === "finalized") return EXIT.ok;
  if (status === "failed" || status === "expired") return EXIT.failed;
  return EXIT.unconfirmed;
}
