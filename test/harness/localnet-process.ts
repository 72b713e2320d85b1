/**
 * The localnet in its own process (`localnet/main.ts --port 0 --json`), and a typed client of its
 * `/admin/*` routes and its RPC.
 */
import type { FaultSettings, LocalnetInfo, RelayLogEntry } from "../../localnet/api.js";
import { compiledBuildIsFresh, spawnTs, type Child, type SpawnTsOptions } from "./child.js";
import { postJsonRpc } from "./json-rpc.js";

/** Operator calls over HTTP (the same surface as the in-process `LocalnetAdmin`). */
export interface LocalnetClient {
  readonly info: LocalnetInfo;
  setFaults(faults: FaultSettings): Promise<void>;
  clearFaults(): Promise<void>;
  /** Calls per "<endpoint>.<method>" since the last reset. */
  stats(): Promise<Record<string, number>>;
  resetStats(): Promise<void>;
  /** Credits lamports to an address (an airdrop without a signature). */
  fund(address: string, lamports: bigint): Promise<void>;
  createToken(opts?: { name?: string; symbol?: string; mayhem?: boolean; cashback?: boolean }): Promise<{
    mint: string;
    creator: string;
  }>;
  complete(mint: string): Promise<void>;
  migrate(mint: string): Promise<{ pool: string }>;
  advanceSlots(n: number): Promise<void>;
  /** Every signature the submission relay received since the last reset. */
  relaySignatures(): Promise<RelayLogEntry[]>;
  resetRelaySignatures(): Promise<void>;
  /** One JSON-RPC call to the localnet's RPC; throws on an error answer. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Lamports of an address (confirmed). */
  balance(address: string): Promise<bigint>;
}

/** A localnet running in a child process. */
export interface LocalnetProcess extends LocalnetClient {
  readonly child: Child;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
}

/** Options of `startLocalnetProcess`. */
export interface LocalnetProcessOptions extends Pick<SpawnTsOptions, "nodeArgs" | "logFile"> {
  /** Slot length in ms (default 400, as `npm run localnet`). */
  slotMs?: number;
  /** How long to wait for the JSON line. Default 60 s (a cold tsx start on a busy machine is slow). */
  startTimeoutMs?: number;
}

/** Starts `localnet/main.ts` on a free port and resolves once it printed its URLs. */
export async function startLocalnetProcess(options: LocalnetProcessOptions = {}): Promise<LocalnetProcess> {
  let onInfo: (info: LocalnetInfo) => void = () => {};
  const gotInfo = new Promise<LocalnetInfo>((resolve) => (onInfo = resolve));
  const compiled = compiledBuildIsFresh();
  const child = spawnTs(
    compiled ? "dist/localnet/main.js" : "localnet/main.ts",
    ["--port", "0", "--json", "--exit-with-stdin", "--slot-ms", String(options.slotMs ?? 400)],
    {
      ...options,
      compiled,
      onStdoutLine: (line) => {
        if (line.startsWith("{")) onInfo(JSON.parse(line) as LocalnetInfo);
      },
    },
  );
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const failed = Promise.race([
    child.exited.then(({ code }) => {
      throw new Error(`localnet exited (code ${code}) before it listened:\n${child.outputTail()}`);
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`localnet did not start in ${timeoutMs} ms:\n${child.outputTail()}`)),
        timeoutMs,
      );
    }),
  ]);
  let info: LocalnetInfo;
  try {
    info = await Promise.race([gotInfo, failed]);
  } catch (e) {
    await child.stop("SIGKILL");
    throw e;
  } finally {
    clearTimeout(timer);
  }
  failed.catch(() => {}); // the process may exit later (stop); nobody waits on this race any more
  return { ...localnetClient(info), child, stop: () => child.stop() };
}

/** A client of a localnet's admin routes and RPC (one started by `startLocalnetProcess`, or any other). */
export function localnetClient(info: LocalnetInfo): LocalnetClient {
  const admin = async <T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> => {
    const send = () =>
      fetch(`${info.adminUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const res = await send().catch((e: unknown) => {
      if (isIdleSocketClosed(e)) return send();
      throw e;
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`localnet admin ${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  let rpcId = 0;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const { body: json } = await postJsonRpc<{ result?: T; error?: { message: string } }>(
      info.rpcUrl,
      method,
      params,
      ++rpcId,
    );
    if (json.error !== undefined) throw new Error(`localnet rpc ${method}: ${json.error.message}`);
    return json.result as T;
  };
  return {
    info,
    setFaults: async (faults) => void (await admin("POST", "/faults", faults)),
    clearFaults: async () => void (await admin("DELETE", "/faults")),
    stats: () => admin("GET", "/stats"),
    resetStats: async () => void (await admin("POST", "/stats/reset")),
    fund: async (address, lamports) =>
      void (await admin("POST", "/fund", { address, lamports: lamports.toString() })),
    createToken: (opts = {}) => admin("POST", "/tokens", opts),
    complete: async (mint) => void (await admin("POST", "/complete", { mint })),
    migrate: (mint) => admin("POST", "/migrate", { mint }),
    advanceSlots: async (n) => void (await admin("POST", "/slots", { n })),
    relaySignatures: async () =>
      (await admin<{ signatures: RelayLogEntry[] }>("GET", "/relay/signatures")).signatures,
    resetRelaySignatures: async () => void (await admin("POST", "/relay/signatures/reset")),
    rpc,
    balance: async (address) =>
      BigInt((await rpc<{ value: number }>("getBalance", [address, { commitment: "confirmed" }])).value),
  };
}

/**
 * fetch reuses kept-alive sockets; one left idle past the server's keep-alive timeout can be closed under
 * the next call ("fetch failed: other side closed", undici's UND_ERR_SOCKET) before the server read it,
 * so sending that call once more is safe, whatever it does.
 */
function isIdleSocketClosed(e: unknown): boolean {
  const cause = e instanceof TypeError ? (e.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === "UND_ERR_SOCKET";
}
