/** The built CLI run as a user runs it (a child process with a config file of its own) against a listening e2e app. */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import type { E2e } from "./e2e.js";
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
  run(args: string[]): Promise<CliRun>;
}

/** Registers beforeAll/afterAll: a listening e2e app and a temporary config directory named `dirPrefix…`. */
export function useCliE2e(dirPrefix: string): CliE2e {
  let close = async (): Promise<void> => {};
  let dir = "";
  let env: NodeJS.ProcessEnv = {};
  const t: CliE2e = {
    e2e: undefined as unknown as E2e, // set by beforeAll, before any test reads it
    baseUrl: "",
    run: (args) =>
      new Promise((resolve) => {
        execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
          resolve({ code, stdout, stderr });
        });
      }),
  };
  beforeAll(async () => {
    ({ e2e: t.e2e, baseUrl: t.baseUrl, close } = await startListeningE2e());
    dir = await mkdtemp(join(tmpdir(), dirPrefix));
    env = { ...process.env, LASERTRADE_CONFIG: join(dir, "config.json") };
    delete env.LASERTRADE_URL;
    delete env.LASERTRADE_API_KEY;
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });
  return t;
}
