/** `npm run localnet`: starts a standalone localnet, prints its URLs and keeps running until SIGINT/SIGTERM. */
import { startLocalnet } from "./index.js";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(argValue("port") ?? process.env.PORT ?? 8899);
const host = argValue("host") ?? "127.0.0.1";
const slotMs = Number(argValue("slot-ms") ?? 400);

const handle = await startLocalnet({ port, host, slotMs });
console.log(`localnet RPC          ${handle.rpcUrl}`);
console.log(`submission relay      ${handle.relayUrl}  (min tip ${handle.relayTipLamports} lamports)`);
console.log(`  tip accounts        ${handle.relayTipAccounts.join(" ")}`);
console.log(`bundle relay          ${handle.bundleRelayUrl}/api/v1/bundles`);
console.log(`  tip accounts        ${handle.bundleTipAccounts.join(" ")}`);
console.log(`admin                 ${handle.adminUrl}`);
console.log(`websocket (pubsub)    ${handle.wsUrl}`);

const stop = () => {
  void handle.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
