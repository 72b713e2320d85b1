/** Issue 22 item 5 through the CLI (and so the typed client): --priority-fee and --tip reach the service. */
import { expect, it } from "vitest";
import { useCliE2e } from "../../helpers/cli-e2e.js";
import { feeOf } from "../../helpers/e2e.js";

const t = useCliE2e("lasertrade-fees-", { json: true });

/** Runs the CLI with --json; resolves to exit code and parsed stdout (null when not JSON). */
async function json(
  args: string[],
): Promise<{ code: number; out: Record<string, unknown> | null; stderr: string }> {
  const { code, stdout, stderr } = await t.run(args);
  let out: Record<string, unknown> | null = null;
  try {
    out = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    out = null;
  }
  return { code, out, stderr };
}

it("buy --priority-fee --tip: a dry run shows them, a real buy pays exactly the priority fee", async () => {
  const setup = await json(["setup", "--url", t.baseUrl]);
  expect(setup.code, setup.stderr).toBe(0);
  t.e2e.localnet.admin.fund(String(setup.out?.wallet_public_key), 5_000_000_000n);
  const { mint } = t.e2e.localnet.admin.createToken();
  const dry = await json(["buy", mint, "0.05", "--priority-fee", "0.0002", "--tip", "0.0003", "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.out).toMatchObject({ dry_run: true, priority_fee_lamports: "200000", tip_lamports: "300000" });
  const real = await json(["buy", mint, "0.05", "--priority-fee", "0.00005"]);
  expect(real.code, real.stderr).toBe(0);
  expect(await feeOf(t.e2e, String(real.out?.signature))).toBe(5_000n + 50_000n);
  const bad = await json(["buy", mint, "0.05", "--priority-fee", "-1"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr + JSON.stringify(bad.out)).toContain("priority_fee must be a SOL amount of at least 0");
});
