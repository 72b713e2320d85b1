/**
 * `lasertrade build` and `lasertrade submit --sign-with` as a user runs them (the built bin) against the
 * listening app: an outside keypair file builds a buy, signs it locally and sends it; the tokens arrive.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-outside-");

describe("lasertrade build / submit", () => {
  it("builds for an outside wallet, signs with its keypair file and sends; a wrong keypair exits 1", async () => {
    const setup = await t.run(["--json", "--url", t.baseUrl, "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    const { mint } = t.e2e.localnet.admin.createToken();
    const signer = Keypair.generate();
    const owner = signer.publicKey.toBase58();
    t.e2e.localnet.admin.fund(owner, 1_000_000_000n);
    const keyFile = join(t.dir, "outside.json");
    await writeFile(keyFile, JSON.stringify(Array.from(signer.secretKey)));
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
