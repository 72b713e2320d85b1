/**
 * The service as every bench script starts it: the compiled build (as `npm start` runs it), a fresh master key,
 * reconciliation off (it would poll the confirm-off trades in the background and blur the per-trade figures)
 * and LOG_LEVEL=warn. `env` adds or overrides variables.
 */
import {
  randomMasterKey,
  startService,
  type ServiceOptions,
  type ServiceProcess,
} from "../test/harness/index.js";

/** Starts the compiled service on `localnet` and `databaseUrl` with the bench's defaults. */
export function startBenchService(
  options: Pick<ServiceOptions, "localnet" | "databaseUrl" | "env" | "nodeArgs" | "logFile">,
): Promise<ServiceProcess> {
  return startService({
    ...options,
    masterKey: randomMasterKey(),
    env: { RECONCILE_INTERVAL_MS: "0", LOG_LEVEL: "warn", ...options.env },
    compiled: true,
  });
}
