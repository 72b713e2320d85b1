/**
 * The localnet: a local Solana cluster (LiteSVM ledger with the emulated launch programs), its
 * JSON-RPC server, the submission relay, the bundle relay and the operator routes, on one HTTP port.
 */
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { Keypair, PublicKey } from "@solana/web3.js";
import type { LocalnetHandle, LocalnetOptions } from "./api.js";
import { adminRoutes, createAdmin } from "./admin.js";
import { createLedger } from "./ledger/index.js";
import { emulatedPrograms, installGenesis, launchOperator } from "./programs/index.js";
import { BundleRelay, bundleMethods } from "./server/bundle-relay.js";
import { CallStats, Faults } from "./server/faults.js";
import { createLocalnetServer, statsTag } from "./server/http-server.js";
import { relayMethods } from "./server/relay.js";
import { LandingRoutes } from "./server/landing-routes.js";
import { RelayLog } from "./server/relay-log.js";
import { rpcMethods } from "./server/rpc-methods.js";
import { Submitter } from "./server/submitter.js";
import { PubSub } from "./server/pubsub.js";
import { acceptWebSocket } from "./server/websocket.js";
import { upgradeRefusal } from "./server/cross-site.js";

export type {
  LocalnetAdmin,
  LocalnetHandle,
  LocalnetInfo,
  LocalnetOptions,
  FaultSettings,
  RelayLogEntry,
  ProgramGeneration,
} from "./api.js";
export {
  DEFAULT_PROGRAM_GENERATION,
  PROGRAM_GENERATIONS,
  parseProgramGeneration,
} from "./programs/generation.js";

/** Default minimum submission-relay tip (lamports). */
export const DEFAULT_RELAY_TIP_LAMPORTS = 200_000n;

function generatedAddresses(n: number): string[] {
  return Array.from({ length: n }, () => Keypair.generate().publicKey.toBase58());
}

/** Starts a localnet in-process; resolves once it listens. */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<LocalnetHandle> {
  const cashbackCreation = options.cashbackCreation ?? false;
  const slotMs = options.slotMs ?? 400;
  const programs = emulatedPrograms({ cashbackCreation, generation: options.programs });
  const ledger = createLedger({
    programs,
    slotMs: slotMs > 0 ? slotMs : 400,
  });
  installGenesis(ledger, { cashbackCreation });
  const relayTipAccounts = options.relayTipAccounts ?? generatedAddresses(10);
  const bundleTipAccounts = options.bundleTipAccounts ?? generatedAddresses(8);
  const relayTipLamports = options.relayTipLamports ?? DEFAULT_RELAY_TIP_LAMPORTS;
  // Tip accounts exist on chain (rent-exempt system accounts), as on mainnet.
  for (const a of [...relayTipAccounts, ...bundleTipAccounts]) {
    ledger.fund(new PublicKey(a), ledger.rentExemptMinimum(0));
  }

  // The landing routes: four senders with their own tip accounts (funded like the relays').
  const landing = new LandingRoutes(ledger, () => {
    const accounts = generatedAddresses(4);
    for (const a of accounts) ledger.fund(new PublicKey(a), ledger.rentExemptMinimum(0));
    return accounts;
  });
  const faults = new Faults();
  const relay2Faults = new Faults();
  const stats = new CallStats();
  const submitter = new Submitter(ledger, faults);
  const bundleRelay = new BundleRelay(ledger, faults, bundleTipAccounts, Date.now, submitter.accepted);
  const relayLog = new RelayLog();
  const pubsub = new PubSub(ledger, stats);
  const admin = createAdmin({
    ledger,
    faults,
    relay2Faults,
    stats,
    relayLog,
    operator: launchOperator,
    pubsub,
    landing,
  });
  const relayConfig = { tipAccounts: relayTipAccounts, minTipLamports: relayTipLamports };

  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        timers.delete(t);
        waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      timers.add(t);
      waiters.add(done);
    });

  const server = createLocalnetServer(
    {
      rpc: rpcMethods(
        ledger,
        submitter,
        programs.map((p) => p.programId),
      ),
      // The signature log (/admin/relay/signatures) records what the first relay received.
      relay: relayMethods(ledger, submitter, { ...relayConfig, log: relayLog }),
      relay2: { methods: relayMethods(ledger, submitter, relayConfig), faults: relay2Faults },
      bundle: bundleMethods(ledger, bundleRelay, bundleTipAccounts),
      routes: landing.routes,
      admin: adminRoutes(admin, faults, ledger, relay2Faults),
      faults,
      stats,
    },
    sleep,
  );
  const upgraded = new Set<Duplex>();
  const onUpgrade = (req: Parameters<typeof acceptWebSocket>[0], socket: Duplex) => {
    // Issue 29: the HTTP side's loopback-Host rule, and no foreign Origin (a web page's WebSocket).
    const refused = upgradeRefusal(req);
    if (refused !== undefined) {
      const body = JSON.stringify({ error: refused.error });
      socket.end(
        `HTTP/1.1 ${refused.status} Forbidden\r\nConnection: close\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    if (pubsub.refusing) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const conn = acceptWebSocket(req, socket);
    if (conn === null) return;
    upgraded.add(socket);
    socket.on("close", () => upgraded.delete(socket));
    pubsub.attach(conn, statsTag(req));
  };
  server.on("upgrade", onUpgrade);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8899, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // Like solana-test-validator, also serve PubSub on port + 1 (web3.js' default) when the port is fixed.
  const wsOnly: Server | null = options.port === 0 ? null : await listenWsOnly(port + 1, host, onUpgrade);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const base = `http://${urlHost}:${port}`;

  const clock = slotMs > 0 ? setInterval(() => ledger.advanceSlots(1), slotMs) : null;
  clock?.unref();

  return {
    rpcUrl: base,
    relayUrl: `${base}/relay`,
    relay2Url: `${base}/relay2`,
    bundleRelayUrl: base,
    adminUrl: `${base}/admin`,
    wsUrl: `ws://${urlHost}:${port}`,
    relayTipAccounts,
    bundleTipAccounts,
    relayTipLamports,
    routes: [...landing.routes.values()].map((r) => ({
      name: r.name,
      url: `${base}/route/${r.name}`,
      tipAccounts: [...r.tipAccounts],
      minTipLamports: r.behaviour.minTipLamports,
    })),
    admin,
    close: async () => {
      if (clock !== null) clearInterval(clock);
      for (const w of [...waiters]) w();
      pubsub.stop();
      for (const s of upgraded) s.destroy();
      if (wsOnly !== null) await new Promise<void>((resolve) => wsOnly.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A WebSocket-only listener; null when the port is taken (best effort). */
function listenWsOnly(
  port: number,
  host: string,
  onUpgrade: (req: Parameters<typeof acceptWebSocket>[0], socket: Duplex) => void,
): Promise<Server | null> {
  const ws = createServer((_req, res) => res.writeHead(426).end());
  ws.on("upgrade", onUpgrade);
  return new Promise((resolve) => {
    ws.once("error", () => resolve(null));
    ws.listen(port, host, () => resolve(ws));
  });
}
