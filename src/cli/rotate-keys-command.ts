/**
 * `npm run rotate-keys`: re-encrypts every stored wallet under the current master key (MASTER_KEY /
 * MASTER_KEY_FILE), decrypting with PREVIOUS_MASTER_KEYS. Prints key ids and counts only.
 */
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import { openStore, type Store } from "../store/index.js";
import {
  createVault,
  loadMasterKey,
  MasterKeyError,
  parsePreviousMasterKeys,
  rotateWalletKeys,
  type RotationReport,
} from "../vault/index.js";

/** Where the command writes its lines. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** Opens the configured store; tests substitute one (e.g. a PostgreSQL schema of their own). */
export type OpenConfiguredStore = (config: Config) => Promise<Store>;

const openConfigured: OpenConfiguredStore = (config) => openStore(config.databaseUrl, config.dataDir);

/** The report as printed lines: key ids and counts, one line per wallet that failed (by row id). */
function formatRotationReport(r: RotationReport): string[] {
  const before = r.before.length === 0 ? "none" : r.before.map((c) => `${c.keyId}=${c.count}`).join(", ");
  const lines = [
    `target key id ${r.keyId}`,
    `wallets per key id before: ${before}`,
    `rotated ${r.rotated}, already current ${r.alreadyCurrent}, skipped (changed meanwhile) ${r.skipped}, failed ${r.failed.length}`,
  ];
  for (const f of r.failed) lines.push(`wallet #${f.walletId}: ${f.reason}`);
  return lines;
}

/** Runs the rotation for `env`; resolves to the process exit code (1 on bad configuration or any failure). */
export async function rotateKeysCommand(
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  open: OpenConfiguredStore = openConfigured,
): Promise<number> {
  let store: Store | undefined;
  try {
    const config = loadConfig(env);
    const master = loadMasterKey(config);
    if (master.generated) io.out(`generated sandbox master key ${master.file ?? ""} (id ${master.id})`);
    const previous = parsePreviousMasterKeys(config.previousMasterKeys);
    const ids = previous.map((k) => k.id).filter((id) => id !== master.id);
    io.out(`previous key ids: ${ids.length === 0 ? "none" : ids.join(", ")}`);
    store = await open(config);
    const report = await rotateWalletKeys(store, createVault(master, previous));
    for (const line of formatRotationReport(report)) io.out(line);
    if (report.failed.length > 0) {
      io.err(
        `rotate-keys: ${report.failed.length} wallet(s) could not be decrypted and stay under their old key; add the missing key to PREVIOUS_MASTER_KEYS and run again`,
      );
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof MasterKeyError) {
      io.err(`rotate-keys: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await store?.close();
  }
}
