/**
 * Files only the service's user may read: a data directory it creates is 0700 and the database files 0600.
 * An existing directory is used as it is (the operator chose it), with a warning when others can read it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";

/** Creates `dir` as 0700 if missing; returns a warning when an existing one is readable by group or others. */
export function ensurePrivateDir(dir: string): string | undefined {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; the directory is ours, so set it exactly.
    chmodSync(dir, 0o700);
    return undefined;
  }
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `data directory ${dir} is readable by other users (mode ${mode.toString(8)}); chmod 700 it`;
}

/**
 * Creates `file` empty with mode 0600 when it does not exist yet, so SQLite (which gives its -wal and -shm
 * files the database file's mode) never creates a world-readable database.
 */
export function ensurePrivateFile(file: string): void {
  if (existsSync(file)) return;
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
}
