/**
 * `lasertrade build` and `lasertrade submit --sign-with` as a user runs them (the built bin) against the
 * listening app: an outside keypair file builds a buy, signs it locally and sends it; the tokens arrive.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { outsideWalletCli, useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-outside-");

describe("lasertrade build / submit", () => {
  it("builds for an outside wallet, signs with its keypair file and sends; a wrong keypair exits 1", async () => {
    const { mint, owner, keyFile } = await outsideWalletCli(t);
    const wrongFile = join(t.dir, "wrong.json");
    await writeFile(wrongFile, JSON.stringify(Array.from(Keypair.generate().secretKey)));

    const built = await t.run(["--json", "build", "buy", mint, "0.05", "--public-key", owner]);
    expect(built.code, built.stderr).toBe(0);
    const { transaction } = JSON.parse(built.stdout) as { transaction: string };

    const wrong = await t.run(["--json", "submit", transaction, "--sign-with", wrongFile]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("transaction signature does not verify for its fee payer");

    const sent = await t.run(["--json", "submit", transaction, "--sign-with", keyFile]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ wallet: owner, mint, confirmed: true });
    expect(await t.e2e.tokenBalance(owner, mint)).toBeGreaterThan(0n);
  });
});
