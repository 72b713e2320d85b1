/** Issue 22 item 5 through the CLI (and so the typed client): --priority-fee and --tip reach the service. */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { E2e } from "../helpers/e2e.js";
import { feeOf } from "../helpers/e2e.js";
import { startListeningE2e } from "../helpers/sandbox-e2e.js";

const CLI = fileURLToPath(new URL("../../packages/cli/bin/lasertrade.js", import.meta.url));

let e2e: E2e;
let baseUrl = "";
let close = async (): Promise<void> => {};
let dir = "";
let env: NodeJS.ProcessEnv;

/** Runs the CLI with --json; resolves to exit code and parsed stdout (null when not JSON). */
function json(
  args: string[],
): Promise<{ code: number; out: Record<string, unknown> | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, "--json", ...args], { env }, (err, stdout, stderr) => {
      let out: Record<string, unknown> | null = null;
      try {
        out = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        out = null;
      }
      resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, out, stderr });
    });
  });
}

beforeAll(async () => {
  ({ e2e, baseUrl, close } = await startListeningE2e());
  dir = await mkdtemp(join(tmpdir(), "lasertrade-fees-"));
  env = { ...process.env, LASERTRADE_CONFIG: join(dir, "config.json") };
  delete env.LASERTRADE_URL;
  delete env.LASERTRADE_API_KEY;
});
afterAll(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

it("buy --priority-fee --tip: a dry run shows them, a real buy pays exactly the priority fee", async () => {
  const setup = await json(["setup", "--url", baseUrl]);
  expect(setup.code, setup.stderr).toBe(0);
  e2e.localnet.admin.fund(String(setup.out?.wallet_public_key), 5_000_000_000n);
  const { mint } = e2e.localnet.admin.createToken();
  const dry = await json(["buy", mint, "0.05", "--priority-fee", "0.0002", "--tip", "0.0003", "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.out).toMatchObject({ dry_run: true, priority_fee_lamports: "200000", tip_lamports: "300000" });
  const real = await json(["buy", mint, "0.05", "--priority-fee", "0.00005"]);
  expect(real.code, real.stderr).toBe(0);
  expect(await feeOf(e2e, String(real.out?.signature))).toBe(5_000n + 50_000n);
  const bad = await json(["buy", mint, "0.05", "--priority-fee", "-1"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr + JSON.stringify(bad.out)).toContain("priority_fee must be a SOL amount of at least 0");
});
