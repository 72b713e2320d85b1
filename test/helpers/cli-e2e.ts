/** The built CLI run as a user runs it (a child process with a config file of its own) against a listening e2e app. */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll } from "vitest";
import type { E2e, E2eOptions } from "./e2e.js";
import { startListeningE2e } from "./sandbox-e2e.js";

const CLI = fileURLToPath(new URL("../../packages/cli/bin/lasertrade.js", import.meta.url));

/** One CLI run: its exit code and output. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The app (filled in by beforeAll) and a runner of the CLI against it. */
export interface CliE2e {
  e2e: E2e;
  baseUrl: string;
  /** The temporary directory (the CLI's config file is `config.json` in it). */
  dir: string;
  /** Runs the CLI with `args`; `extraEnv` is added to its environment (e.g. LASERTRADE_API_KEY). */
  run(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<CliRun>;
}

export interface CliE2eOptions {
  /** Puts `--json` before every run's arguments. */
  json?: boolean;
  /** Options of the listening app (e.g. the warm state, which orders need). */
  e2e?: E2eOptions;
}

/** Registers beforeAll/afterAll: a listening e2e app and a temporary config directory named `dirPrefix…`. */
export function useCliE2e(dirPrefix: string, options: CliE2eOptions = {}): CliE2e {
  let close = async (): Promise<void> => {};
  let env: NodeJS.ProcessEnv = {};
  const first = options.json === true ? ["--json"] : [];
  const t: CliE2e = {
    e2e: undefined as unknown as E2e, // set by beforeAll, before any test reads it
    baseUrl: "",
    dir: "",
    run: (args, extraEnv = {}) =>
      new Promise((resolve) => {
        const runEnv = { ...env, ...extraEnv };
        execFile(process.execPath, [CLI, ...first, ...args], { env: runEnv }, (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
          resolve({ code, stdout, stderr });
        });
      }),
  };
  beforeAll(async () => {
    ({ e2e: t.e2e, baseUrl: t.baseUrl, close } = await startListeningE2e(options.e2e));
    t.dir = await mkdtemp(join(tmpdir(), dirPrefix));
    env = { ...process.env, LASERTRADE_CONFIG: join(t.dir, "config.json") };
    delete env.LASERTRADE_URL;
    delete env.LASERTRADE_API_KEY;
  });
  afterAll(async () => {
    await close();
    await rm(t.dir, { recursive: true, force: true });
  });
  return t;
}

/**
 * The CLI set up against the app (`setup` run), a new token, and an outside wallet funded with 1 SOL whose keypair
 * file (`outside.json` in the CLI's directory) a user would sign with.
 */
export async function outsideWalletCli(t: CliE2e): Promise<{ mint: string; owner: string; keyFile: string }> {
  const setup = await t.run(["--json", "--url", t.baseUrl, "setup"]);
  if (setup.code !== 0) throw new Error(`setup failed: ${setup.stderr}`);
  const { mint } = t.e2e.localnet.admin.createToken();
  const signer = Keypair.generate();
  const owner = signer.publicKey.toBase58();
  t.e2e.localnet.admin.fund(owner, 1_000_000_000n);
  const keyFile = join(t.dir, "outside.json");
  await writeFile(keyFile, JSON.stringify(Array.from(signer.secretKey)));
  return { mint, owner, keyFile };
}
