/** POST /v1/cashback/check end to end: the localnet's /admin/cashback sets amounts, the API reads them back. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { SPEC } from "../../../src/core/errors.js";
import {
  launchUserVolumeAccumulator,
  swapCashbackWsolAccount,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import { external, startE2e, type E2e } from "../../helpers/e2e.js";

let e2e: E2e;
beforeAll(async () => {
  // Nothing here is sent, so the caches need no refresh: background reads would blur the round-trip count.
  e2e = await startE2e({ chain: { cacheRefreshMs: 600_000 } });
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(() => e2e.reset());

/** Sets claimable cashback through the localnet's HTTP admin route, as an operator would. */
async function adminCashback(user: string, bondingLamports: bigint, swapLamports: bigint): Promise<void> {
  const res = await fetch(`${e2e.localnet.adminUrl}/cashback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      user,
      bondingLamports: bondingLamports.toString(),
      swapLamports: swapLamports.toString(),
    }),
  });
  expect(res.status).toBe(200);
}

interface Entry {
  wallet: string;
  launch_bonding_lamports: number;
  launch_bonding_sol: string;
  launchswap_wsol_lamports: number;
  launchswap_wsol: string;
  total_claimable_lamports: number;
  total_claimable_sol: string;
  accounts: Record<string, string>;
}
interface CheckBody {
  wallets: Entry[];
  totals: Record<string, number | string>;
  rpc_slots: number[];
}

describe("POST /v1/cashback/check", () => {
  it("reads the default managed wallet's two sources with their accounts", async () => {
    const { apiKey, wallet } = await e2e.setup();
    await adminCashback(wallet, 1_234_567_891n, 987_654_321n);

    const res = await e2e.post(apiKey, "/v1/cashback/check");
    expect(res.statusCode).toBe(200);
    const body = res.json<CheckBody>();
    const user = new PublicKey(wallet);
    expect(body.wallets).toEqual([
      {
        wallet,
        launch_bonding_lamports: 1_234_567_891,
        launch_bonding_sol: "1.234567891",
        launchswap_wsol_lamports: 987_654_321,
        launchswap_wsol: "0.987654321",
        total_claimable_lamports: 2_222_222_212,
        total_claimable_sol: "2.222222212",
        accounts: {
          launch_user_volume_accumulator: launchUserVolumeAccumulator(user).toBase58(),
          launchswap_user_volume_accumulator: swapUserVolumeAccumulator(user).toBase58(),
          launchswap_wsol_ata: swapCashbackWsolAccount(user).toBase58(),
        },
      },
    ]);
    expect(body.totals).toEqual({
      launch_bonding_lamports: 1_234_567_891,
      launch_bonding_sol: "1.234567891",
      launchswap_wsol_lamports: 987_654_321,
      launchswap_wsol: "0.987654321",
      combined_lamports: 2_222_222_212,
      combined_sol: "2.222222212",
    });
    expect(body.rpc_slots).toHaveLength(1);
    expect(body.rpc_slots[0]).toBeGreaterThan(0);
  });

  it("treats an empty body, with or without a JSON content type, as no fields (the default wallet)", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 0n });
    for (const headers of [
      { "x-api-key": apiKey },
      { "x-api-key": apiKey, "content-type": "application/json" },
    ]) {
      const res = await e2e.app.inject({ method: "POST", url: "/v1/cashback/check", headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<CheckBody>().wallets.map((w) => w.wallet)).toEqual([wallet]);
    }
  });

  it("reads an external wallet named with `wallet`", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const outsider = external();
    await adminCashback(outsider, 5_000n, 0n);
    const res = await e2e.post(apiKey, "/v1/cashback/check", { wallet: outsider });
    expect(res.statusCode).toBe(200);
    const [entry] = res.json<CheckBody>().wallets;
    expect(entry).toMatchObject({
      wallet: outsider,
      launch_bonding_lamports: 5_000,
      launch_bonding_sol: "0.000005000",
      launchswap_wsol_lamports: 0,
      total_claimable_lamports: 5_000,
    });
  });

  it("gives 0 for wallets whose accounts do not exist", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const nobody = external();
    const res = await e2e.post(apiKey, "/v1/cashback/check", { wallets: [nobody] });
    expect(res.statusCode).toBe(200);
    const body = res.json<CheckBody>();
    expect(body.wallets[0]).toMatchObject({
      wallet: nobody,
      launch_bonding_lamports: 0,
      launch_bonding_sol: "0.000000000",
      launchswap_wsol_lamports: 0,
      launchswap_wsol: "0.000000000",
      total_claimable_lamports: 0,
      total_claimable_sol: "0.000000000",
    });
    expect(body.totals.combined_lamports).toBe(0);
  });

  it("reads managed, external and missing wallets in one account read, duplicates removed in order", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const outsider = external();
    const nobody = external();
    await adminCashback(wallet, 100n, 200n);
    await adminCashback(outsider, 0n, 3_000_000_000n);
    e2e.reset();

    const res = await e2e.post(apiKey, "/v1/cashback/check", {
      wallets: [outsider, wallet, nobody, outsider, wallet],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<CheckBody>();
    expect(body.wallets.map((w) => w.wallet)).toEqual([outsider, wallet, nobody]);
    expect(body.wallets.map((w) => [w.launch_bonding_lamports, w.launchswap_wsol_lamports])).toEqual([
      [0, 3_000_000_000],
      [100, 200],
      [0, 0],
    ]);
    expect(body.totals).toEqual({
      launch_bonding_lamports: 100,
      launch_bonding_sol: "0.000000100",
      launchswap_wsol_lamports: 3_000_000_200,
      launchswap_wsol: "3.000000200",
      combined_lamports: 3_000_000_300,
      combined_sol: "3.000000300",
    });
    // One batched read for every wallet, and nothing else touches the RPC.
    expect(e2e.roundTrips()).toEqual({ "rpc.getMultipleAccounts": 1 });
  });

  it("accepts 100 wallets and refuses 101", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const hundred = Array.from({ length: 100 }, external);
    const ok = await e2e.post(apiKey, "/v1/cashback/check", { wallets: hundred });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<CheckBody>().wallets).toHaveLength(100);
    const tooMany = await e2e.post(apiKey, "/v1/cashback/check", { wallets: [...hundred, external()] });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ code: "cashback.wallets_count", detail: SPEC.check.walletsCount });
  });

  it("answers the spec's 400s", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 0n });
    const cases: [unknown, string][] = [
      [{ wallet, wallets: [wallet] }, SPEC.check.walletAndWallets],
      [{ wallets: [] }, SPEC.check.walletsCount],
      [{ wallets: wallet }, SPEC.check.walletsCount],
      [{ wallet: "not-a-key" }, SPEC.check.invalidAddress],
      [{ wallets: [wallet, "0OIl"] }, SPEC.check.invalidAddress],
    ];
    for (const [body, detail] of cases) {
      const res = await e2e.post(apiKey, "/v1/cashback/check", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/), detail });
    }
  });

  it("needs an API key even though it is read-only", async () => {
    const res = await e2e.app.inject({ method: "POST", url: "/v1/cashback/check", payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it("is a 502 with the spec's text when the account read fails", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 0n });
    e2e.localnet.admin.setFaults({ errorRate: 1, errorKind: "http500", methods: ["getMultipleAccounts"] });
    const res = await e2e.post(apiKey, "/v1/cashback/check", { wallet });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: "cashback.read_failed", detail: SPEC.check.readFailed });
  });
});
