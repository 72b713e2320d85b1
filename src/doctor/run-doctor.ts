/**
 * The pre-flight checks (`npm run doctor`, and DOCTOR_AT_START): one line per check, in an order where each
 * check can use what an earlier one read. Pure orchestration over the chain options; nothing is sent.
 */
import type { ChainOptions } from "../chain/chain.js";
import { createJsonRpcTransport } from "../chain/json-rpc.js";
import { createRpcClient } from "../chain/rpc-client.js";
import type { Cluster } from "../config/config.js";
import { formatResult, type CheckResult } from "./check.js";
import { checkCluster } from "./cluster-check.js";
import { checkExposure, type ExposureSettings } from "./exposure-check.js";
import { checkFeePolicy } from "./fee-policy-check.js";
import { checkLookupTables } from "./lookup-table-check.js";
import { checkPrograms } from "./program-check.js";
import { checkPubSub } from "./pubsub-check.js";
import { checkProgramGeneration } from "./generation-check.js";
import { checkBundleRelay, probeRelay } from "./relays-check.js";
import { checkTipAccounts } from "./tip-accounts-check.js";
import { checkRoute, type RouteProbeTarget } from "./routes-check.js";

/** What the doctor checks: the chain options the service would run with, and CLUSTER. */
export interface DoctorInput {
  cluster: Cluster;
  chain: Pick<
    ChainOptions,
    | "rpcUrl"
    | "rpcWsUrl"
    | "relayUrl"
    | "relays"
    | "bundleRelayUrl"
    | "relayTipAccounts"
    | "relayTipLamports"
    | "bundleTipAccounts"
    | "lookupTables"
    | "rpcTimeoutMs"
    | "computeUnitPrice"
    | "fetch"
    | "programGeneration"
  >;
  /**
   * Issue 29: the setup gate, metrics token and allowed hosts, checked off the sandbox (exposure-check.ts);
   * absent: not checked.
   */
  exposure?: ExposureSettings;
  /** ROUTES, resolved (doctor/routes-check.ts); absent or empty: no route to check. */
  routes?: readonly RouteProbeTarget[];
}

/** Every result, and whether any failed. */
export interface DoctorReport {
  results: CheckResult[];
  failed: boolean;
  /** One line per check. */
  lines: string[];
}

/** Runs every check (never throws: an unreachable upstream is a failed check). */
export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const c = input.chain;
  const fetch = c.fetch;
  const timeoutMs = c.rpcTimeoutMs;
  const withFetch = fetch !== undefined ? { fetch } : {};
  const transport = createJsonRpcTransport({ url: c.rpcUrl, timeoutMs, ...withFetch });
  // No retries: a check reports what the upstream does now, and a dead RPC must not hold up a start for long.
  const rpc = createRpcClient({ url: c.rpcUrl, timeoutMs, readRetries: 0, ...withFetch });
  const relays = c.relays ?? [{ name: "relay", url: c.relayUrl }];

  // Independent chains of checks run in parallel; the output keeps one fixed order.
  const [cluster, feePolicy, chainChecks, relayResults, bundleChecks, pubsub, routeChecks] =
    await Promise.all([
      checkCluster(transport, input.cluster),
      checkFeePolicy(rpc, c.computeUnitPrice),
      (async () => {
        const programs = await checkPrograms(rpc);
        const generation = await checkProgramGeneration(rpc, c.programGeneration ?? "auto");
        const table = await checkLookupTables(rpc, {
          tables: c.lookupTables ?? [],
          global: programs.global,
          swapGlobalConfig: programs.swapGlobalConfig,
        });
        return [...programs.results, generation, table];
      })(),
      Promise.all(relays.map((r) => probeRelay(r, timeoutMs, fetch))),
      (async () => {
        const bundle = await checkBundleRelay(c.bundleRelayUrl, c.bundleTipAccounts, timeoutMs, fetch);
        const tips = await Promise.all([
          checkTipAccounts(rpc, {
            name: "relay-tip-accounts",
            setting: "RELAY_TIP_ACCOUNTS",
            accounts: c.relayTipAccounts,
            tipLamports: c.relayTipLamports,
          }),
          ...(bundle.tipAccounts !== null
            ? [
                checkTipAccounts(rpc, {
                  name: "bundle-tip-accounts",
                  setting: "BUNDLE_TIP_ACCOUNTS",
                  accounts: bundle.tipAccounts,
                }),
              ]
            : []),
        ]);
        return [bundle.result, ...tips];
      })(),
      // issue 18: the warm venue state needs the PubSub endpoint.
      checkPubSub(c, Math.max(timeoutMs, 2_000)),
      Promise.all((input.routes ?? []).map((r) => checkRoute(rpc, r, timeoutMs, fetch))),
    ]);
  const results: CheckResult[] = [
    // First: what anyone who reaches the port can do matters before what the chain answers.
    ...(input.exposure !== undefined ? checkExposure(input.cluster, input.exposure) : []),
    cluster,
    ...chainChecks,
    ...relayResults,
    ...bundleChecks,
    ...routeChecks.flat(),
    feePolicy,
    pubsub,
  ];
  return {
    results,
    failed: results.some((r) => r.status === "fail"),
    lines: results.map(formatResult),
  };
}
