/**
 * `npm run positions:rebuild [-- --account <id>]`: rebuilds the positions ledger from the execution history
 * (every confirmed fill, oldest first, in one transaction: trades, dev buys, bundle legs). The numbers equal the
 * live ledger's. It prints the fills applied (a bundle's legs count one each) and the executions they came from.
 */
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import { openStore, type Store } from "../store/index.js";
import type { CommandIo, OpenConfiguredStore } from "./rotate-keys-command.js";

const openConfigured: OpenConfiguredStore = (config: Config) => openStore(config.databaseUrl, config.dataDir);

/** Bad command-line arguments. */
export class UsageError extends Error {}

/** The account id of `--account <id>`, undefined for every account; throws UsageError on anything else. */
export function parseRebuildArgs(args: readonly string[]): number | undefined {
  if (args.length === 0) return undefined;
  const [flag, value, ...rest] = args;
  if (flag !== "--account" || value === undefined || rest.length > 0 || !/^\d{1,9}$/.test(value))
    throw new UsageError("usage: npm run positions:rebuild [-- --account <id>]");
  return Number(value);
}

/** Runs the rebuild for `env`; resolves to the process exit code (1 on bad arguments or configuration). */
export async function positionsRebuildCommand(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  io: CommandIo,
  open: OpenConfiguredStore = openConfigured,
): Promise<number> {
  let store: Store | undefined;
  try {
    const account = parseRebuildArgs(args);
    store = await open(loadConfig(env));
    const report = await store.rebuildPositions(account);
    io.out(
      `rebuilt ${account === undefined ? "every account" : `account ${account}`}: ${report.fills} fills applied from ${report.executions} executions, ${report.positions} positions`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof UsageError) {
      io.err(`positions:rebuild: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await store?.close();
  }
}
