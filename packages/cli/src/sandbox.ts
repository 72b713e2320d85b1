/**
 * `lasertrade sandbox`: runs the service of this checkout in sandbox mode (CLUSTER=localnet: in-process local
 * cluster, SQLite in DATA_DIR), stores a working API key, funds the default wallet from the localnet and
 * creates a demo token to buy. Runs until Ctrl-C, which stops the service cleanly.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LaserTrade, LaserTradeError } from "@lasertrade/client";
import { configPath, loadConfig, saveConfig } from "./config-file.js";
import { customClusterExplorer, describe, toJson } from "./render.js";
import { followStart, refuseBusyPorts } from "./sandbox-start.js";

const FUNDING_LAMPORTS = 10_000_000_000n;
const START_TIMEOUT_MS = 120_000;

export interface SandboxOptions {
  port: number;
  localnetPort: number;
  json: boolean;
  env: NodeJS.ProcessEnv;
}

/** The lasertrade checkout this CLI belongs to (the folder whose package.json is named "lasertrade"). */
function serviceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && existsSync(join(dir, "src", "main.ts"))) {
      const name = (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name;
      if (name === "lasertrade") return dir;
    }
    const up = dirname(dir);
    if (up === dir)
      throw new Error("`lasertrade sandbox` runs from a lasertrade checkout (src/main.ts not found)");
    dir = up;
  }
}

async function jsonPost(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

/** A stored key that still works on this service, else a new one from setup (stored, mode 0600). */
async function workingClient(baseUrl: string, path: string, explorer: string): Promise<LaserTrade> {
  const stored = await loadConfig(path).catch(() => undefined);
  if (stored?.baseUrl === baseUrl) {
    const client = new LaserTrade({ baseUrl, apiKey: stored.apiKey });
    const works = await client.wallets.list().then(
      () => true,
      (e: unknown) => !(e instanceof LaserTradeError && e.status === 401),
    );
    if (works) {
      await saveConfig(path, { ...stored, explorer });
      return client;
    }
  }
  const setup = await LaserTrade.setup(baseUrl);
  await saveConfig(path, { baseUrl, apiKey: setup.api_key, explorer });
  return setup.client;
}

/** Starts the sandbox and resolves when it has been stopped (Ctrl-C or SIGTERM). */
export async function runSandbox(o: SandboxOptions): Promise<void> {
  const root = serviceRoot();
  // Issue 22: a busy port is refused before anything starts (the service would fail to bind while another
  // instance answered in its place).
  await refuseBusyPorts({ host: o.env.HOST ?? "127.0.0.1", port: o.port, localnetPort: o.localnetPort });
  const dataDir = resolve(root, o.env.DATA_DIR ?? "data");
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, "sandbox.log");
  const log = openSync(logFile, "a");
  const print = (line: string) => process.stderr.write(`${line}\n`);
  print(`starting the sandbox service (log: ${logFile})`);
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: {
      ...o.env,
      CLUSTER: "localnet",
      DATA_DIR: dataDir,
      PORT: String(o.port),
      LOCALNET_PORT: String(o.localnetPort),
    },
    // The IPC channel carries the service's start-up steps (src/runtime/start-progress.ts).
    stdio: ["ignore", log, log, "ipc"],
    // Its own process group: Ctrl-C reaches only this CLI, which forwards one SIGINT (a second signal would
    // make the service exit at once instead of closing cleanly).
    detached: true,
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((r) =>
    child.on("exit", (code) => {
      exitCode = code;
      r();
    }),
  );
  let stopping = false;
  const stop = () => {
    stopping = true;
    if (exitCode === undefined) child.kill("SIGINT");
  };
  process.on("exit", () => exitCode === undefined && child.kill("SIGKILL"));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    const baseUrl = `http://127.0.0.1:${o.port}`;
    const rpcUrl = `http://127.0.0.1:${o.localnetPort}`;
    await followStart(child, { logFile, timeoutMs: START_TIMEOUT_MS, print });
    // The channel is only for start-up; closed, it no longer keeps either process's event loop alive.
    if (child.connected) child.disconnect();
    const path = configPath(o.env);
    const client = await workingClient(baseUrl, path, customClusterExplorer(rpcUrl));
    const wallets = await client.wallets.list();
    const wallet = (wallets.find((w) => w.is_default) ?? wallets[0])?.public_key;
    if (wallet === undefined) throw new Error("the API key has no wallet: run `lasertrade wallets create`");
    await jsonPost(rpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "requestAirdrop",
      params: [wallet, Number(FUNDING_LAMPORTS)],
    });
    const token = (await jsonPost(`${rpcUrl}/admin/tokens`, { name: "Sandbox Demo", symbol: "DEMO" })) as {
      mint: string;
    };
    const ready = {
      service: baseUrl,
      localnet_rpc: rpcUrl,
      wallet,
      funded_lamports: FUNDING_LAMPORTS,
      mint: token.mint,
      config_file: path,
      log_file: logFile,
    };
    if (o.json) process.stdout.write(`${toJson(ready, 0)}\n`);
    else
      process.stdout.write(
        `sandbox ready (Ctrl-C stops it)\n${describe(ready, (s) => s)}\n\n` +
          `try:  npx lasertrade buy ${token.mint} 0.05\n`,
      );
  } catch (e) {
    stop();
    await exited;
    throw e;
  }
  await exited;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (!stopping || (exitCode !== 0 && exitCode !== null))
    throw new Error(`the service exited with code ${exitCode} (log: ${logFile})`);
}
