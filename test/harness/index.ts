/**
 * Multi-process test harness: the localnet and the service each in their own process, as deployed.
 *
 *   const cluster = await startCluster({ processes: 2, database: "postgres", serviceEnv: { … } });
 *   const { apiKey, wallet } = await cluster.setupKey();            // funded default wallet
 *   const { mint } = await cluster.localnet.createToken();
 *   const res = await apiRequest(cluster.services[1]!.baseUrl, "POST", "/v1/trades/execute", { apiKey, body });
 *   await cluster.localnet.setFaults({ errorRate: 0.3, endpoints: ["rpc"] });
 *   await cluster.services[0]!.kill();                              // kill -9
 *   await cluster.close();
 */
export { allExecutions, apiRequest, fundedWallet, setupKey } from "./api-client.js";
export type { ApiRequestOptions, ApiResponse, ExecutionRecord, TestKey } from "./api-client.js";
export { spawnTs, REPO_ROOT } from "./child.js";
export type { Child, SpawnTsOptions } from "./child.js";
export { startCluster } from "./cluster.js";
export type { Cluster, ClusterOptions } from "./cluster.js";
export { freshPgDatabase, freshSqliteDatabase } from "./database.js";
export type { TestDatabase } from "./database.js";
export { postJsonRpc, SEND_UNCHECKED } from "./json-rpc.js";
export { localnetClient, startLocalnetProcess } from "./localnet-process.js";
export type { LocalnetClient, LocalnetProcess, LocalnetProcessOptions } from "./localnet-process.js";
export { freePort, randomMasterKey, serviceEnv, startService } from "./service-process.js";
export type { ServiceOptions, ServiceProcess } from "./service-process.js";
export { parseProcUsage, procUsage } from "./proc-usage.js";
export type { ProcUsage } from "./proc-usage.js";
export { ascending, percentile } from "./stats.js";
