/**
 * `lasertrade build-create`, `build-bundle` and `submit` as a user runs them (the built bin) against the
 * listening app: outside keypair files create a token and buy it in one bundle, signed locally, one keypair
 * file per leg; a token creation is built, signed and sent alone.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-outside-legs-");
const URI = "https://example.com/metadata/cli-outside-legs-0123456789abcdef.json";

async function keypairFile(name: string): Promise<{ owner: string; file: string }> {
  const k = Keypair.generate();
  const owner = k.publicKey.toBase58();
  t.e2e.localnet.admin.fund(owner, 1_000_000_000n);
  const file = join(t.dir, `${name}.json`);
  await writeFile(file, JSON.stringify(Array.from(k.secretKey)));
  return { owner, file };
}

describe("lasertrade build-create / build-bundle / submit", () => {
  it("creates a token from an outside wallet, then a create-led bundle of two outside wallets", async () => {
    const setup = await t.run(["--json", "--url", t.baseUrl, "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    const creator = await keypairFile("creator");
    const buyer = await keypairFile("buyer");

    const built = await t.run(["--json", "build-create", "Cli", "CLI", URI, "--public-key", creator.owner]);
    expect(built.code, built.stderr).toBe(0);
    const { transaction, mint } = JSON.parse(built.stdout) as { transaction: string; mint: string };
    const sent = await t.run(["--json", "submit", transaction, "--sign-with", creator.file]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ kind: "create", mint, confirmed: true });

    const file = join(t.dir, "bundle.json");
    await writeFile(
      file,
      JSON.stringify({
        accounts: [
          { type: "create", name: "CliPair", symbol: "CPR", uri: URI },
          { type: "buy", wallet: buyer.owner, amount: "0.05" },
        ],
        bundleTip: "0.0001",
      }),
    );
    const legs = await t.run(["--json", "build-bundle", file, "--public-key", creator.owner]);
    expect(legs.code, legs.stderr).toBe(0);
    const b = JSON.parse(legs.stdout) as { mint: string; legs: { transaction: string }[] };
    const txs = b.legs.map((l) => l.transaction);
    // One keypair file per leg, or one for all: three files for two legs is refused before anything is sent.
    const wrongKeys = await t.run([
      "--json",
      "submit",
      ...txs,
      "--sign-with",
      `${creator.file},${buyer.file},x`,
    ]);
    expect(wrongKeys.code).toBe(1);
    const bundle = await t.run(["--json", "submit", ...txs, "--sign-with", `${creator.file},${buyer.file}`]);
    expect(bundle.code, bundle.stderr).toBe(0);
    expect(JSON.parse(bundle.stdout)).toMatchObject({ kind: "bundle", mint: b.mint, confirmed: true });
    expect(await t.e2e.tokenBalance(buyer.owner, b.mint)).toBeGreaterThan(0n);
  });
});
