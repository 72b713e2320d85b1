/**
 * Issue 19: `--dry-run` on every execution command of the `lasertrade` CLI (the built bin in a child process)
 * against the listening sandbox app: each answers the dry run (exit 0, `dry_run: true`, the transactions it
 * would send) and nothing is sent (no relay call, no bundle), recorded (no execution, no activity row) or
 * moved (balances unchanged).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";
import { callWith } from "../../helpers/security.js";

const t = useCliE2e("lasertrade-cli-dry-", { json: true });

/** Runs the CLI with --json as `apiKey` (no config file: the URL and key come from the environment). */
const cli = (apiKey: string, args: string[]) =>
  t.run(args, { LASERTRADE_URL: t.baseUrl, LASERTRADE_API_KEY: apiKey });

interface DryRunAnswer {
  dry_run: boolean;
  policy: { allowed: boolean };
  transactions: { fee_payer: string; simulation: { ok: boolean } | null }[];
}

describe("lasertrade --dry-run", () => {
  it("every execution command answers its dry run and sends, records and moves nothing", async () => {
    const { e2e, dir } = t;
    const { apiKey, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    // Tokens to sell and a second funded wallet to consolidate, made for real before the dry runs.
    const bought = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.2" });
    expect(bought.statusCode, bought.body).toBe(200);
    const second = (await callWith(e2e.app, apiKey, "POST", "/v1/wallets", {})).body.public_key as string;
    e2e.localnet.admin.fund(second, 1_000_000_000n);
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 7_000_000n, swapLamports: 0n });
    const bundleFile = join(dir, "bundle.json");
    await writeFile(
      bundleFile,
      JSON.stringify({ mint, accounts: [{ type: "buy", amount: "0.1" }], bundleTip: "0.00001" }),
    );
    const history = async (): Promise<unknown[]> =>
      (await callWith(e2e.app, apiKey, "GET", "/v1/executions?limit=200")).body.executions as unknown[];
    const activity = async (): Promise<unknown[]> =>
      (await callWith(e2e.app, apiKey, "GET", "/v1/activity")).body.activity as unknown[];
    const executions0 = await history();
    const activity0 = await activity();
    const sol0 = [await e2e.balance(wallet), await e2e.balance(second)];
    const tokens0 = await e2e.tokenBalance(wallet, mint);
    e2e.reset();

    const dest = Keypair.generate().publicKey.toBase58();
    const commands: string[][] = [
      ["buy", mint, "0.1"],
      ["sell", mint, "50%"],
      ["create", "Dry Coin", "DRY", "https://example.com/dry.json", "--initial-buy", "0.01"],
      ["bundle", bundleFile],
      ["cashback", "--claim"],
      ["send", dest, "0.1"],
      ["split", dest],
      ["consolidate", wallet, "--from", second],
    ];
    // Concurrently: dry runs write nothing, and each CLI run is mostly a node start.
    const runs = await Promise.all(commands.map((args) => cli(apiKey, [...args, "--dry-run"])));
    for (const [i, r] of runs.entries()) {
      const label = commands[i]![0]!;
      expect(r.code, `${label}: ${r.stderr}`).toBe(0);
      const answer = JSON.parse(r.stdout) as DryRunAnswer;
      expect(answer.dry_run, label).toBe(true);
      expect(answer.policy.allowed, label).toBe(true);
      expect(answer.transactions.length, label).toBeGreaterThan(0);
      const payers = answer.transactions.map((t) => t.fee_payer);
      expect(
        payers.every((p) => p === wallet || p === second),
        label,
      ).toBe(true);
    }

    expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
    expect(e2e.roundTrips()["bundle.sendBundle"] ?? 0).toBe(0);
    expect(await history()).toEqual(executions0);
    expect(await activity()).toEqual(activity0);
    expect([await e2e.balance(wallet), await e2e.balance(second)]).toEqual(sol0);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(tokens0);
    expect(await e2e.balance(dest)).toBe(0n);
  });
});
