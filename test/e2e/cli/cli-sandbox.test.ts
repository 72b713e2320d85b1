/**
 * Issue 22 item 7: `lasertrade sandbox` refuses a busy port with a clear message (before, it printed "ready"
 * with the other instance's details and then exited 1), prints its start-up steps, and says on a restart that
 * the database was kept while the localnet chain starts empty.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../../packages/cli/bin/lasertrade.js", import.meta.url));

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lasertrade-sandbox-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const envFor = (name: string): NodeJS.ProcessEnv => ({
  ...process.env,
  LASERTRADE_CONFIG: join(dir, name, "config.json"),
  DATA_DIR: join(dir, name, "data"),
  LOCALNET_SLOT_MS: "50",
  LOG_LEVEL: "warn",
});

function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      resolve(typeof a === "object" && a !== null ? a.port : 0);
    }),
  );
}

async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

function sandboxOnce(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [CLI, "sandbox", ...args], { env }, (e, out, err) =>
      resolve({ code: e === null ? 0 : typeof e.code === "number" ? e.code : 1, out, err }),
    ),
  );
}

/** Starts the sandbox, waits for its ready line (JSON), stops it with Ctrl-C; returns what it printed. */
async function sandboxRun(port: number, localnetPort: number, env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    [CLI, "--json", "sandbox", "--port", String(port), "--localnet-port", String(localnetPort)],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ service: string; wallet: string; mint: string }>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as never);
    });
    void exited.then(() => reject(new Error(`sandbox exited: ${err}`)));
  });
  child.kill("SIGINT");
  const code = await exited;
  return { ready, err, code };
}

describe("lasertrade sandbox (issue 22)", () => {
  it("refuses a service port another program holds, naming it and the --port option; nothing starts", async () => {
    const other = createServer();
    const port = await listen(other);
    try {
      const r = await sandboxOnce(
        ["--port", String(port), "--localnet-port", String(await freePort())],
        envFor("a"),
      );
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `port ${port} is already in use by another program: stop it, or start this sandbox on a free port with --port <port>`,
      );
      expect(r.out).not.toContain("ready");
    } finally {
      other.close();
    }
  });

  it("names another lasertrade service that answers on the port", async () => {
    const other = createHttpServer((_req, res) => res.writeHead(200).end('{"status":"ok"}'));
    const port = await listen(other);
    try {
      const r = await sandboxOnce(
        ["--port", String(port), "--localnet-port", String(await freePort())],
        envFor("b"),
      );
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `another lasertrade service already answers on http://127.0.0.1:${port} (a sandbox started earlier?): stop it`,
      );
      expect(r.out).not.toContain("ready");
    } finally {
      other.close();
    }
  });

  it("refuses a busy localnet port, naming --localnet-port", async () => {
    const other = createServer();
    const localnetPort = await listen(other);
    try {
      const r = await sandboxOnce(
        ["--port", String(await freePort()), "--localnet-port", String(localnetPort)],
        envFor("c"),
      );
      expect(r.code).toBe(1);
      expect(r.err).toContain(`localnet port ${localnetPort} is already in use`);
      expect(r.err).toContain("--localnet-port <port>");
    } finally {
      other.close();
    }
  });

  it("prints its start-up steps; a restart says the database was kept and the chain starts empty", async () => {
    const env = envFor("d");
    const [port, localnetPort] = [await freePort(), await freePort()];
    const first = await sandboxRun(port, localnetPort, env);
    expect(first.code).toBe(0);
    expect(first.ready.service).toBe(`http://127.0.0.1:${port}`);
    const steps = [
      /✓ database migrated: .*lasertrade\.sqlite \(new\)/,
      new RegExp(`✓ localnet up: http://127\\.0\\.0\\.1:${localnetPort}`),
      new RegExp(
        `✓ listening: http://127\\.0\\.0\\.1:${port} \\(API docs: http://127\\.0\\.0\\.1:${port}/docs, console: http://127\\.0\\.0\\.1:${port}/console\\)`,
      ),
    ];
    const positions = steps.map((re) => first.err.search(re));
    expect(
      positions.every((p) => p >= 0),
      first.err,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(first.err).not.toContain("kept the database");

    const second = await sandboxRun(port, localnetPort, env);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/✓ database migrated: .*lasertrade\.sqlite \(kept from an earlier run\)/);
    expect(second.err).toContain(
      "(API keys, wallets, history) from an earlier run; the localnet chain starts empty",
    );
    // The stored key still works on the kept database: the same wallet, funded again on the fresh chain.
    expect(second.ready.wallet).toBe(first.ready.wallet);
  }, 240_000);
});
