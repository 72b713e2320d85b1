/**
 * Issue 22, the CLI as a user runs it (the built bin in a child process) against the listening app: a buy that
 * never lands is not "done" (exit 3, the follow-up command), `status` by id and by signature, the decoded
 * insufficient-SOL refusal, global --url / --api-key and --version.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliE2e } from "../../helpers/cli-e2e.js";

// A bundle that never lands is reported after the wait; 2 s (the trades' wait here) instead of the harness's 5 s.
const cli = useCliE2e("lasertrade-cli-outcomes-", { e2e: { chain: { bundleConfirmTimeoutMs: 2_000 } } });

describe("lasertrade CLI outcomes", () => {
  it("never says done for a buy that did not land; status follows it; refusals are decoded", async () => {
    const version = await cli.run(["--version"]);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    // Global --url (before the command) is what setup stores.
    const setup = await cli.run(["--json", "--url", cli.baseUrl, "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    const { wallet_public_key: wallet } = JSON.parse(setup.stdout) as { wallet_public_key: string };
    cli.e2e.localnet.admin.fund(wallet, 5_000_000_000n);
    const { mint } = cli.e2e.localnet.admin.createToken();

    // A wrong --api-key overrides the stored one.
    const wrong = await cli.run(["--api-key", "lt_wrong", "wallets"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("(HTTP 401)");

    cli.e2e.localnet.admin.setFaults({ neverLand: true });
    const lost = await cli.run(["buy", mint, "0.01"]);
    cli.e2e.localnet.admin.clearFaults();
    expect(lost.code, lost.stderr).toBe(3);
    expect(lost.stderr).not.toContain("done");
    const m = /sent, not confirmed within \d+ s: (\w+), follow with `lasertrade status ([0-9a-f-]{36})`/.exec(
      lost.stderr,
    );
    expect(m, lost.stderr).not.toBeNull();
    const [, signature, id] = m!;
    const open = await cli.run(["--json", "status", id!]);
    expect(open.code).toBe(3);
    expect(JSON.parse(open.stdout)).toMatchObject({ id, signatures: [signature] });
    const bySignature = await cli.run(["--json", "status", signature!]);
    expect(JSON.parse(bySignature.stdout)).toMatchObject({ id });

    const landed = await cli.run(["--json", "buy", mint, "0.01"]);
    expect(landed.code, landed.stderr).toBe(0);
    const bought = JSON.parse(landed.stdout) as { execution_id: string; fill: { token_change: string } };
    const done = await cli.run(["--json", "status", bought.execution_id]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ response: { fill: bought.fill } });

    // balance: SOL and the token just bought; delink asks (and refuses without a terminal) unless --yes.
    const balance = await cli.run(["--json", "balance"]);
    expect(balance.code, balance.stderr).toBe(0);
    const held = JSON.parse(balance.stdout) as {
      wallet: string;
      lamports: string;
      tokens: { mint: string; amount: string }[];
    };
    expect(held.wallet).toBe(wallet);
    expect(BigInt(held.lamports)).toBe(await cli.e2e.balance(wallet));
    expect(held.tokens.find((t) => t.mint === mint)?.amount).toBe(
      String(await cli.e2e.tokenBalance(wallet, mint)),
    );
    const refused = await cli.run(["wallets", "delink", wallet]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`wallet ${wallet} holds `);
    expect(refused.stderr).toContain("not delinked (pass --yes");
    expect((await cli.run(["--json", "wallets"])).stdout).toContain(wallet);

    const poor = await cli.run(["buy", mint, "50"]);
    expect(poor.code).toBe(1);
    expect(poor.stderr).toContain("error [trade.simulation_failed]: trade simulation failed (HTTP 400)");
    expect(poor.stderr).toContain(`reason: insufficient SOL: wallet ${wallet} has `);
    expect(poor.stderr).not.toContain("may still land");
  });

  it("a bundle that does not land in the wait exits 3 like a trade; a failed one prints the relay's reason", async () => {
    const setup = await cli.run(["--json", "--url", cli.baseUrl, "setup"]);
    const { wallet_public_key: wallet } = JSON.parse(setup.stdout) as { wallet_public_key: string };
    cli.e2e.localnet.admin.fund(wallet, 5_000_000_000n);
    const { mint } = cli.e2e.localnet.admin.createToken();
    const file = join(cli.dir, "bundle.json");
    await writeFile(
      file,
      JSON.stringify({ mint, accounts: [{ type: "buy", amount: "0.01" }], bundleTip: "0.00001" }),
    );

    cli.e2e.localnet.admin.setFaults({ neverLand: true });
    const lost = await cli.run(["bundle", file]);
    cli.e2e.localnet.admin.clearFaults();
    expect(lost.code, lost.stderr).toBe(3);
    expect(lost.stderr).toMatch(
      /sent, not confirmed within \d+ s: \w+, follow with `lasertrade status [0-9a-f-]{36}`/,
    );
    expect(lost.stdout).toContain("bundle confirmation timed out");

    cli.e2e.localnet.admin.setFaults({ bundleFailed: true });
    const failed = await cli.run(["bundle", file]);
    cli.e2e.localnet.admin.clearFaults();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("error [bundle.failed]: bundle failed (HTTP 502)");
    expect(failed.stderr).toContain("reason: the bundle relay reported the bundle Failed");
  });
});
