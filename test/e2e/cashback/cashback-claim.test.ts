/** POST /v1/cashback/claim/execute end to end: claims of both sources, of one, of none, and the refusals. */
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { NATIVE_MINT } from "@solana/spl-token";
import { rentExemptMinimum } from "../../../src/domain/sol/reserve.js";
import { SPEC } from "../../../src/core/errors.js";
import { feeOf } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface ClaimTx {
  kind: "bonding_curve" | "launchswap";
  claimable_lamports: number;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}
interface ClaimBody {
  wallet: string;
  transactions: ClaimTx[];
}

async function claimable(apiKey: string, wallet: string): Promise<[number, number]> {
  const res = await e2e.post(apiKey, "/v1/cashback/check", { wallet });
  const [entry] = res.json<{
    wallets: { launch_bonding_lamports: number; launchswap_wsol_lamports: number }[];
  }>().wallets;
  return [entry?.launch_bonding_lamports ?? -1, entry?.launchswap_wsol_lamports ?? -1];
}

describe("POST /v1/cashback/claim/execute", () => {
  it("claims both sources in two transactions; the wallet gains exactly the cashback minus fees and tips", async () => {
    const { apiKey, wallet } = await e2e.setup();
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 7_000_000n, swapLamports: 3_000_000n });
    const before = await e2e.balance(wallet);

    const res = await e2e.post(apiKey, "/v1/cashback/claim/execute", {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ClaimBody>();
    expect(body.wallet).toBe(wallet);
    expect(body.transactions.map((t) => [t.kind, t.claimable_lamports, t.confirmed])).toEqual([
      ["bonding_curve", 7_000_000, true],
      ["launchswap", 3_000_000, true],
    ]);
    expect(body.transactions[0]?.signature).not.toBe(body.transactions[1]?.signature);
    for (const t of body.transactions) expect(["confirmed", "finalized"]).toContain(t.confirmation_status);

    let spent = 0n;
    for (const t of body.transactions)
      spent += (await feeOf(e2e, t.signature)) + e2e.localnet.relayTipLamports;
    // Bonding cashback arrives as SOL; swap cashback as WSOL in the wallet's WSOL account, whose rent the
    // wallet paid when the claim created it.
    expect(await e2e.balance(wallet)).toBe(before + 7_000_000n - spent - rentExemptMinimum(165));
    expect(await e2e.tokenBalance(wallet, NATIVE_MINT.toBase58())).toBe(3_000_000n);
    expect(await claimable(apiKey, wallet)).toEqual([0, 0]);
  });

  it("claims only the enabled source", async () => {
    const { apiKey, wallet } = await e2e.setup();
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 2_000_000n, swapLamports: 4_000_000n });
    const res = await e2e.post(apiKey, "/v1/cashback/claim/execute", { claim_launchswap: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimBody>().transactions.map((t) => [t.kind, t.claimable_lamports])).toEqual([
      ["bonding_curve", 2_000_000],
    ]);
    expect(await claimable(apiKey, wallet)).toEqual([0, 4_000_000]);

    const swapOnly = await e2e.post(apiKey, "/v1/cashback/claim/execute", {
      wallet,
      claim_bonding_curve: false,
      confirm: false,
    });
    expect(swapOnly.statusCode, swapOnly.body).toBe(200);
    const [tx] = swapOnly.json<ClaimBody>().transactions;
    expect(tx).toMatchObject({ kind: "launchswap", claimable_lamports: 4_000_000, confirmed: false });
    expect(tx?.confirmation_status).toBeNull();
  });

  it("adds swap cashback to WSOL the wallet already holds (the account is reused, not closed)", async () => {
    const { apiKey, wallet } = await e2e.setup();
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 0n, swapLamports: 1_000_000n });
    const first = await e2e.post(apiKey, "/v1/cashback/claim/execute", {});
    expect(first.statusCode, first.body).toBe(200);
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 0n, swapLamports: 2_000_000n });
    const before = await e2e.balance(wallet);
    const second = await e2e.post(apiKey, "/v1/cashback/claim/execute", {});
    expect(second.statusCode, second.body).toBe(200);
    const [tx] = second.json<ClaimBody>().transactions;
    expect(tx).toMatchObject({ kind: "launchswap", claimable_lamports: 2_000_000 });
    expect(await e2e.tokenBalance(wallet, NATIVE_MINT.toBase58())).toBe(3_000_000n);
    // No rent this time: the idempotent create found the account.
    expect(await e2e.balance(wallet)).toBe(
      before - (await feeOf(e2e, tx?.signature ?? "")) - e2e.localnet.relayTipLamports,
    );
  });

  it("sends nothing when nothing is claimable", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const res = await e2e.post(apiKey, "/v1/cashback/claim/execute", {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ wallet, transactions: [] });
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
  });

  it("refuses a wallet that is not managed by the key, and disabled claim types", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const other = await e2e.setup({ sol: 0n });
    for (const wallet of [other.wallet, Keypair.generate().publicKey.toBase58()]) {
      const res = await e2e.post(apiKey, "/v1/cashback/claim/execute", { wallet });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: "cashback.wallet_selection", detail: SPEC.claim.walletSelection });
    }
    const none = await e2e.post(apiKey, "/v1/cashback/claim/execute", {
      claim_bonding_curve: false,
      claim_launchswap: false,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ detail: SPEC.claim.noneEnabled, code: "cashback.none_enabled" });
  });

  it("is a 502 with the spec's text when the pre-claim read fails, and sends nothing", async () => {
    const { apiKey, wallet } = await e2e.setup();
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 1_000_000n, swapLamports: 0n });
    e2e.localnet.admin.setFaults({ errorRate: 1, errorKind: "rpcError", methods: ["getMultipleAccounts"] });
    const res = await e2e.post(apiKey, "/v1/cashback/claim/execute", {});
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: "cashback.read_failed", detail: SPEC.claim.readFailed });
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
  });
});
