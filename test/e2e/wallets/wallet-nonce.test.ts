/**
 * GET /v1/wallets/{public_key} (and `lasertrade wallets show`, client `wallets.get`): a wallet with its durable
 * nonce account: the derived address before it exists, then, once the first raced trade created it, its rent,
 * its current value (which the next raced trade advances) and its authority. A foreign wallet is a 404, a bad
 * key a 400.
 */
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { decodeNonce, nonceAddress } from "../../../src/chain/landing/nonce.js";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const cli = useCliE2e("lasertrade-cli-wallet-nonce-", { e2e: { routes: { stats: new RouteStats() } } });

interface Detail {
  public_key: string;
  is_default: boolean;
  nonce_account: {
    address: string;
    exists: boolean;
    rent_lamports: string | null;
    nonce_value: string | null;
    authority: string | null;
  };
  slot: number;
}

describe("a wallet's durable nonce account", () => {
  it("shows the derived address, then the created account's rent, value and authority", async () => {
    const e2e = cli.e2e;
    const { apiKey, wallet } = await e2e.setup();
    const address = (await nonceAddress(new PublicKey(wallet))).toBase58();
    const show = async (): Promise<Detail> => {
      const res = await e2e.get(apiKey, `/v1/wallets/${wallet}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Detail>();
    };
    const before = await show();
    expect(before).toMatchObject({
      public_key: wallet,
      is_default: true,
      nonce_account: { address, exists: false, rent_lamports: null, nonce_value: null, authority: null },
    });

    const { mint } = e2e.localnet.admin.createToken();
    const race = async () => {
      const res = await e2e.post(apiKey, "/v1/trades/execute", {
        action: "buy",
        mint,
        amount: "0.001",
        simulate: false,
        routes: "all",
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ nonce: { rent_lamports: string }; confirmed: boolean }>();
    };
    const first = await race();
    const created = await show();
    const onChain = decodeNonce(
      new PublicKey(address),
      (await e2e.chain.rpc.getAccountInfo(new PublicKey(address))).value,
    )!;
    expect(created.nonce_account).toEqual({
      address,
      exists: true,
      rent_lamports: first.nonce.rent_lamports,
      nonce_value: onChain.value,
      authority: wallet,
    });
    expect(created.slot).toBeGreaterThan(0);

    // A landed raced trade advances it.
    e2e.localnet.admin.advanceSlots(2);
    if ((await race()).confirmed) expect((await show()).nonce_account.nonce_value).not.toBe(onChain.value);

    expect((await e2e.get(apiKey, `/v1/wallets/${Keypair.generate().publicKey.toBase58()}`)).statusCode).toBe(
      404,
    );
    expect((await e2e.get(apiKey, "/v1/wallets/not-a-key")).statusCode).toBe(400);

    // The CLI (and the client under it) shows the same.
    const run = await cli.run(["--json", "--url", cli.baseUrl, "wallets", "show", wallet], {
      LASERTRADE_API_KEY: apiKey,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      public_key: wallet,
      nonce_account: { address, exists: true },
    });
  });
});
