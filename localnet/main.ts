/**
 * `npm run localnet`: starts a standalone localnet, prints its URLs and keeps running until SIGINT/SIGTERM.
 * Flags: `--port N` (0 = a free port), `--host H`, `--slot-ms N`, `--json` (print one JSON line with the
 * URLs and tip accounts instead of the table, for a parent process that reads them: test/harness/),
 * `--exit-with-stdin` (stop when standard input closes, so a parent that dies takes the localnet along).
 */
import type { LocalnetInfo } from "./api.js";
import { parseProgramGeneration, startLocalnet, type LocalnetHandle } from "./index.js";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function info(handle: LocalnetHandle): LocalnetInfo {
  return {
    rpcUrl: handle.rpcUrl,
    relayUrl: handle.relayUrl,
    bundleRelayUrl: handle.bundleRelayUrl,
    adminUrl: handle.adminUrl,
    wsUrl: handle.wsUrl,
    relayTipAccounts: handle.relayTipAccounts,
    bundleTipAccounts: handle.bundleTipAccounts,
    relayTipLamports: handle.relayTipLamports.toString(),
    pid: process.pid,
  };
}

const port = Number(argValue("port") ?? process.env.PORT ?? 8899);
const host = argValue("host") ?? "127.0.0.1";
const slotMs = Number(argValue("slot-ms") ?? 400);

const programs = parseProgramGeneration(argValue("programs") ?? process.env.LOCALNET_PROGRAMS);

const handle = await startLocalnet({ port, host, slotMs, programs });
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(info(handle)));
} else {
  console.log(`localnet RPC          ${handle.rpcUrl}`);
  console.log(`submission relay      ${handle.relayUrl}  (min tip ${handle.relayTipLamports} lamports)`);
  console.log(`second relay          ${handle.relay2Url}  (own fault switches: /admin/relay2/faults)`);
  console.log(`  tip accounts        ${handle.relayTipAccounts.join(" ")}`);
  console.log(`bundle relay          ${handle.bundleRelayUrl}/api/v1/bundles`);
  console.log(`  tip accounts        ${handle.bundleTipAccounts.join(" ")}`);
  console.log(`admin                 ${handle.adminUrl}`);
  console.log(`websocket (pubsub)    ${handle.wsUrl}`);
}

const stop = () => {
  void handle.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
if (process.argv.includes("--exit-with-stdin")) {
  process.stdin.on("end", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();
}
