/**
 * Start-up progress for a parent process (issue 22: `lasertrade sandbox` prints each step and waits for its own
 * child's "listening", not for whatever answers on the port). Sent over the IPC channel when the service was
 * spawned with one; a no-op otherwise.
 */

/** One step of the service's start. */
export type StartStep =
  | { step: "database"; path: string; existing: boolean }
  | { step: "localnet"; rpcUrl: string }
  | { step: "notice"; message: string }
  | { step: "listening"; url: string };

/** The message wrapper, so a parent can tell these from anything else on the channel. */
export interface StartMessage {
  lasertradeStart: StartStep;
}

/** Sends `step` to the parent when there is an IPC channel to it. */
export function reportStart(
  step: StartStep,
  send: ((message: StartMessage) => unknown) | undefined = process.send?.bind(process),
): void {
  const message: StartMessage = { lasertradeStart: step };
  // A parent that went away makes send throw; the service does not depend on anyone reading its progress.
  try {
    send?.(message);
  } catch {
    /* ignored: progress is informative only */
  }
}

/**
 * The line a sandbox prints when it starts on a database kept from an earlier run: the localnet chain always
 * starts empty, so that run's balances and tokens are gone while its keys, wallets and history remain.
 */
export function keptDatabaseNotice(path: string): string {
  return (
    `sandbox: kept the database ${path} (API keys, wallets, history) from an earlier run; ` +
    "the localnet chain starts empty, so that run's balances and tokens are gone"
  );
}
