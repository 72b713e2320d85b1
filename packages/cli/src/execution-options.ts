/** The options every execution command shares, and how they become body fields and call options. */
import type { Command } from "commander";

/** A command's parsed options, as commander hands them to an action. */
export type Opts = Record<string, unknown>;
// Fields left undefined are dropped when the body is written (JSON), so options map straight onto fields.
/** The option's text, or undefined when it was not given (or is not text). */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** --no-confirm and --idempotency-key on every execution command; --wallet unless it names no single wallet. */
export function executionOptions(cmd: Command, o: { wallet?: boolean; confirmHelp?: string } = {}): Command {
  if (o.wallet !== false) {
    cmd.option("-w, --wallet <public_key>", "managed wallet (default: the key's default wallet)");
  }
  return cmd
    .option("--no-confirm", o.confirmHelp ?? "return once sent, without waiting for confirmation")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .option("--dry-run", "check, quote and simulate; print what would be sent without sending")
    .option("--priority-fee <sol>", "priority fee in SOL per transaction (default: the service's price)")
    .option("--tip <sol>", "relay tip in SOL per transaction; a bundle's tip (default: the service's tip)");
}

/** `dry_run: true` in the body when --dry-run was given (the answer then describes what would be sent). */
const dryRunOnly = (o: Opts): { dry_run?: true } => (o.dryRun === true ? { dry_run: true } : {});

/** The body fields every execution command's options give: dry_run, priority_fee and tip (SOL text as typed). */
export const dryRun = (o: Opts): { dry_run?: true; priority_fee?: string; tip?: string } => ({
  ...dryRunOnly(o),
  ...(str(o.priorityFee) !== undefined ? { priority_fee: str(o.priorityFee) } : {}),
  ...(str(o.tip) !== undefined ? { tip: str(o.tip) } : {}),
});

/** The body fields every execution command ends with: confirm (unless --no-confirm), then those of `dryRun`. */
export const executionFields = (o: Opts) => ({ confirm: o.confirm !== false, ...dryRun(o) });

/** The call options of an execution command: its --idempotency-key when given. */
export const callOptions = (o: Opts) => {
  const key = str(o.idempotencyKey);
  return key !== undefined ? { idempotencyKey: key } : {};
};
