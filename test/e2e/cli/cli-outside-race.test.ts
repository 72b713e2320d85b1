/**
 * `lasertrade nonce-account` and a raced `build --routes` / `submit` as a user runs them (the built bin): an
 * outside keypair file creates its nonce account (signed here, sent to the localnet RPC), builds a buy raced over
 * every route, and submits the build's JSON (every variant signed with the keypair file): one variant lands.
 */
import { describe, expect, it } from "vitest";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { outsideWalletCli, useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-outside-race-", { e2e: { routes: { stats: new RouteStats() } } });

describe("lasertrade nonce-account / build --routes / submit", () => {
  it("creates the outside wallet's nonce account, builds raced variants and submits them: one lands", async () => {
    const { mint, owner, keyFile } = await outsideWalletCli(t);

    const created = await t.run([
      "--json",
      "nonce-account",
      owner,
      "--sign-with",
      keyFile,
      "--rpc",
      t.e2e.localnet.rpcUrl,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { signature } = JSON.parse(created.stdout) as { signature: string };
    for (let i = 0; i < 200; i++) {
      const { value } = await t.e2e.connection.getSignatureStatuses([signature]);
      if (value[0] !== null) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    t.e2e.localnet.admin.advanceSlots(2);
    const shown = await t.run(["--json", "nonce-account", owner]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ exists: true, authority: owner });

    const built = await t.run([
      "--json",
      "build",
      "buy",
      mint,
      "0.05",
      "--public-key",
      owner,
      "--routes",
      "all",
    ]);
    expect(built.code, built.stderr).toBe(0);
    expect((JSON.parse(built.stdout) as { variants: unknown[] }).variants).toHaveLength(4);

    // The build's JSON as the argument: every variant signed here and raced.
    const sent = await t.run(["--json", "submit", built.stdout.trim(), "--sign-with", keyFile]);
    expect(sent.code, sent.stderr).toBe(0);
    const answer = JSON.parse(sent.stdout) as { confirmed: boolean; landed_via: string; routes: unknown[] };
    expect(answer).toMatchObject({ confirmed: true, wallet: owner, mint });
    expect(answer.routes).toHaveLength(4);
    expect(["route-a", "route-b", "route-c", "route-d"]).toContain(answer.landed_via);
    expect(await t.e2e.tokenBalance(owner, mint)).toBeGreaterThan(0n);
  });
});
