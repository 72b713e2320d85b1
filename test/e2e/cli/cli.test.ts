/**
 * The `lasertrade` CLI as a user runs it (the built bin in a child process) against the listening app: setup
 * writes a 0600 config, every command once with --json, errors exit non-zero with the detail, the progress
 * line and explorer link in a real pseudo-terminal (util-linux `script`), and `lasertrade sandbox` from start
 * to a confirmed buy to Ctrl-C.
 */
import { execFile, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import type { E2e } from "../../helpers/e2e.js";
import { startListeningE2e } from "../../helpers/sandbox-e2e.js";

const CLI = fileURLToPath(new URL("../../../packages/cli/bin/lasertrade.js", import.meta.url));
const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;

let e2e: E2e;
let baseUrl = "";
let close = async (): Promise<void> => {};
let dir = "";
let env: NodeJS.ProcessEnv;
let wallet = "";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with the test's config file; never rejects (the exit code is part of the result). */
function run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI with `input` on its stdin. */
function runWithInput(args: string[], input: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : 1, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

/** Runs with --json and parses stdout; fails the test with stderr when the command failed. */
async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const r = await run(["--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  ({ e2e, baseUrl, close } = await startListeningE2e());
  dir = await mkdtemp(join(tmpdir(), "lasertrade-cli-"));
  env = { ...process.env, LASERTRADE_CONFIG: join(dir, "config", "config.json") };
  delete env.LASERTRADE_URL;
  delete env.LASERTRADE_API_KEY;
});
afterAll(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => e2e.reset());

describe("lasertrade CLI", () => {
  it("refuses to run without a key, then `setup` stores one in a 0600 config file", async () => {
    const none = await run(["wallets"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no API key configured: run `lasertrade setup`");

    const setup = await json<{ api_key: string; wallet_public_key: string; config_file: string }>(
      "setup",
      "--url",
      baseUrl,
    );
    expect(setup.api_key).toMatch(/^lt_/);
    expect(setup.config_file).toBe(env.LASERTRADE_CONFIG);
    expect((await stat(setup.config_file)).mode & 0o777).toBe(0o600);
    wallet = setup.wallet_public_key;
    e2e.localnet.admin.fund(wallet, 20_000_000_000n);
    const config = (await import(setup.config_file, { with: { type: "json" } })) as {
      default: { baseUrl: string; apiKey: string };
    };
    expect(config.default).toEqual({ baseUrl, apiKey: setup.api_key });
  });

  it("manages wallets", async () => {
    const created = await json<{ public_key: string; private_key_base58: string }>("wallets", "create");
    expect(created.private_key_base58.length).toBeGreaterThan(40);
    const kp = Keypair.generate();
    const imported = await json<{ public_key: string }>("wallets", "import", bs58.encode(kp.secretKey));
    const seed = Keypair.generate();
    const piped = await runWithInput(
      ["--json", "wallets", "import", "-"],
      `${bs58.encode(seed.secretKey)}\n`,
    );
    expect(JSON.parse(piped.stdout)).toMatchObject({ public_key: seed.publicKey.toBase58() });
    await json("wallets", "delink", seed.publicKey.toBase58());
    expect(imported.public_key).toBe(kp.publicKey.toBase58());
    expect(await json("wallets", "default", imported.public_key)).toMatchObject({ is_default: true });
    const list = await json<{ public_key: string; is_default: boolean }[]>("wallets", "list");
    expect(list.map((w) => w.public_key)).toEqual([wallet, created.public_key, imported.public_key]);
    await json("wallets", "default", wallet);
    expect(await json("wallets", "delink", imported.public_key)).toEqual({ ok: true });
    expect(await json("wallets", "delink", created.public_key)).toEqual({ ok: true });

    const table = await run(["wallets"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+public_key\s+status\s+is_default\s+created_at$/);
  });

  it("creates, buys, sells and bundles; lamport fields print as exact JSON numbers", async () => {
    const token = await json<{ mint: string; initial_buy: { amount_lamports: number } }>(
      "create",
      "Cli Coin",
      "CLIC",
      "https://example.com/clic.json",
      "--initial-buy",
      "0.01",
    );
    expect(token.initial_buy.amount_lamports).toBe(10_000_000);
    const buy = await json<{ signature: string; confirmed: boolean; amount_units: number }>(
      "buy",
      token.mint,
      "0.05",
    );
    expect(buy).toMatchObject({ confirmed: true, amount_units: 50_000_000 });
    const sell = await json<{ action: string; amount: string }>("sell", token.mint, "25%", "--no-confirm");
    expect(sell).toMatchObject({ action: "sell", amount: "25%" });

    const file = join(dir, "bundle.json");
    await writeFile(
      file,
      JSON.stringify({ mint: token.mint, bundleTip: "0.00001", accounts: [{ type: "buy", amount: "0.01" }] }),
    );
    const bundle = await json<{ results: unknown[]; confirmed: boolean }>("bundle", file);
    expect(bundle.results).toHaveLength(1);
    expect(bundle.confirmed).toBe(true);
  });

  it("checks and claims cashback, moves SOL and lists the history", async () => {
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 5_000_000n, swapLamports: 0n });
    const check = await json<{ totals: { combined_lamports: number } }>("cashback");
    expect(check.totals.combined_lamports).toBe(5_000_000);
    const claim = await json<{ transactions: { kind: string }[] }>("cashback", "--claim");
    expect(claim.transactions.map((t) => t.kind)).toEqual(["bonding_curve"]);

    const other = await json<{ public_key: string }>("wallets", "create");
    const sent = await json<{ amount_units: number }>("send", other.public_key, "1");
    expect(sent.amount_units).toBe(1_000_000_000);
    const a = Keypair.generate().publicKey.toBase58();
    const b = Keypair.generate().publicKey.toBase58();
    const split = await json<{ transfers: { mode: string }[] }>(
      "split",
      `${a}=0.1`,
      `${b}=10%`,
      Keypair.generate().publicKey.toBase58(),
      "--wallet",
      other.public_key,
      "--total-percent",
      "50",
    );
    expect(split.transfers.map((t) => t.mode)).toEqual(["fixed", "percent", "equal"]);
    const swept = await json<{ transactions: unknown[] }>("consolidate", wallet, "--from", other.public_key);
    expect(swept.transactions).toHaveLength(1);

    const history = await json<{ executions: { kind: string }[] }>("history", "--limit", "100");
    const kinds = new Set(history.executions.map((e) => e.kind));
    for (const k of ["create", "trade", "bundle", "claim", "transfer", "split", "consolidate"])
      expect(kinds).toContain(k);
    const table = await run(["history", "--kind", "trade", "--limit", "1"]);
    expect(table.stdout).toMatch(/^created_at\s+kind\s+status\s+wallet\s+signature\n/);
    expect(table.stdout).toContain("more: --offset 1");
  });

  it("exits non-zero with the detail: 400, 401, 404 and 502 with its signature", async () => {
    const { mint } = e2e.localnet.admin.createToken();
    const bad = await run(["sell", mint, "150%"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      "error [trade.percent_range]: percentage sells must be greater than 0% and at most 100% (HTTP 400)\n",
    );
    const asJson = await run(["--json", "sell", mint, "150%"]);
    expect(JSON.parse(asJson.stderr)).toEqual({
      status: 400,
      detail: "percentage sells must be greater than 0% and at most 100%",
      code: "trade.percent_range",
    });
    const unknown = await run(["wallets", "default", Keypair.generate().publicKey.toBase58()]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      "error [wallets.not_found]: wallet not found (HTTP 404)\n",
    ]);
    const foreign = await run(["wallets"], { LASERTRADE_API_KEY: "lt_wrong" });
    expect([foreign.code, foreign.stderr]).toEqual([
      1,
      "error [auth.invalid_key]: invalid API key (HTTP 401)\n",
    ]);

    e2e.localnet.admin.setFaults({
      endpoints: ["relay"],
      methods: ["sendTransaction"],
      errorCount: 1,
      errorKind: "http500",
    });
    const upstream = await run(["buy", mint, "0.01", "--no-simulate"]);
    expect(upstream.code).toBe(1);
    expect(upstream.stderr).toMatch(
      /^error \[[a-z_.]+\]: .+ \(HTTP 502\)\nsignature: [1-9A-HJ-NP-Za-km-z]{64,88} /,
    );
  });

  it.skipIf(!HAS_SCRIPT)(
    "shows a progress line and an explorer link in a terminal, none in a pipe",
    async () => {
      const { mint } = e2e.localnet.admin.createToken();
      const template = "https://explorer.example/tx/{signature}";
      const tty = await ptyRun(["buy", mint, "0.05"], { LASERTRADE_EXPLORER: template });
      expect(tty.code).toBe(0);
      expect(tty.out).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] buying 0\.05 SOL of \w+ \(build, send, wait to land\) \d+\.\ds/);
      // Issue 22: the phases, ending in "landed" (never "done" for a transaction that did not land).
      expect(tty.out).toMatch(/✓ sent: \w+\r?\n✓ landed \(confirmed\) after \d+\.\ds/);
      const signature = /signature\s+(\w+)/.exec(tty.out)?.[1];
      expect(tty.out).toMatch(new RegExp(`explorer +https://explorer\\.example/tx/${signature}`));

      const piped = await run(["buy", mint, "0.01"], { LASERTRADE_EXPLORER: template });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).toBe("");
      expect(piped.stdout).toMatch(/^wallet\s+\w+\naction\s+buy\n/);
      expect(piped.stdout).toContain("https://explorer.example/tx/");
    },
  );

  it.skipIf(!HAS_SCRIPT)(
    "`sandbox` starts the service, funds the wallet, prints a mint; a buy confirms; Ctrl-C stops it",
    async () => {
      const [port, localnetPort] = [await freePort(), await freePort()];
      const sandboxEnv = {
        ...env,
        LASERTRADE_CONFIG: join(dir, "sandbox", "config.json"),
        DATA_DIR: join(dir, "sandbox", "data"),
        LOCALNET_SLOT_MS: "50",
        LOG_LEVEL: "warn",
      };
      const child = spawn(
        process.execPath,
        [CLI, "--json", "sandbox", "--port", String(port), "--localnet-port", String(localnetPort)],
        { env: sandboxEnv, stdio: ["ignore", "pipe", "pipe"] },
      );
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      let out = "";
      let err = "";
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      const ready = await new Promise<{ mint: string; wallet: string; service: string }>(
        (resolve, reject) => {
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as never);
          });
          void exited.then(() => reject(new Error(`sandbox exited: ${err}`)));
        },
      );
      expect(ready.service).toBe(`http://127.0.0.1:${port}`);
      const buy = await run(["--json", "buy", ready.mint, "0.05"], sandboxEnv);
      expect(buy.code, buy.stderr).toBe(0);
      expect(JSON.parse(buy.stdout)).toMatchObject({ wallet: ready.wallet, confirmed: true });
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    },
  );
});

/** Runs the CLI inside a pseudo-terminal (`script`), returning everything the terminal showed. */
function ptyRun(args: string[], extraEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve) => {
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      env: { ...env, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}
