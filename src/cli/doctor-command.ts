/**
 * `npm run doctor`: the pre-flight checks for the configured cluster, one line per check, exit 1 on any
 * failure. With CLUSTER=localnet and no RPC_URL it checks a fresh in-process sandbox localnet (what `npm start`
 * would run), so the command works with no configuration at all.
 */
import { createChain } from "../chain/chain.js";
import type { FetchLike } from "../chain/json-rpc.js";
import { chainOptionsFromConfig, ConfigError, loadConfig } from "../config/config.js";
import { routeProbeTargets } from "../doctor/routes-check.js";
import { fail, formatResult } from "../doctor/check.js";
import { runDoctor } from "../doctor/run-doctor.js";
import type { CommandIo } from "./rotate-keys-command.js";

/** Runs the doctor for `env`; resolves to the exit code (0 all passed or warned, 1 a check failed or bad config). */
export async function doctorCommand(
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  fetch?: FetchLike,
): Promise<number> {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  try {
    let config = loadConfig(env);
    if (config.sandbox && config.rpcUrl === undefined) {
      const { startSandboxChain } = await import("../runtime/sandbox.js");
      // Port 0: a running service may hold the default port.
      const sandbox = await startSandboxChain({ ...config, localnetPort: 0 }, { info: () => undefined });
      cleanups.push(() => sandbox.localnet.close());
      config = sandbox.config;
      const chain = createChain(chainOptionsFromConfig(config));
      cleanups.push(() => chain.stop());
      await chain.start();
      await sandbox.installLookupTable(chain);
      io.out("(CLUSTER=localnet without RPC_URL: checking a fresh in-process sandbox localnet)");
    }
    const report = await runDoctor({
      cluster: config.cluster,
      exposure: config.hardening,
      routes: routeProbeTargets(config),
      chain: { ...chainOptionsFromConfig(config), ...(fetch !== undefined ? { fetch } : {}) },
    });
    for (const line of report.lines) io.out(line);
    io.out(report.failed ? "doctor: FAILED" : "doctor: all checks passed");
    return report.failed ? 1 : 0;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // A wrong or missing setting is itself a failed check, named like the others.
    io.err(formatResult(fail("config", e.message)));
    return 1;
  } finally {
    for (const c of cleanups.reverse()) await c();
  }
}
