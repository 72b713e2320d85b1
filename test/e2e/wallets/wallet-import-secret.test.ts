/**
 * Found by the fuzzer (issue 9.5): an imported 64-byte secret key was zeroed before it was encrypted (web3.js's
 * Keypair kept a reference to the decoded bytes that were then wiped), so the stored wallet could not sign.
 * Every wallet the service stores must decrypt to the secret it was given, and the buffers it encrypted from
 * must be zeroed afterwards.
 */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWallet, importWallet } from "../../../src/domain/wallets/wallets.js";
import type { NewWallet, WalletRecord } from "../../../src/store/index.js";
import type { Vault } from "../../../src/vault/index.js";
import { buildTestApp, testVault, type TestApp } from "../../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The secret the store holds for `publicKey` under `apiKey`. */
async function storedSecret(apiKey: string, publicKey: string): Promise<Buffer> {
  const key = await t.store.findApiKeyByHash(t.vault.hashApiKey(apiKey));
  const record = await t.store.findWallet(key!.id, publicKey);
  return Buffer.from(t.vault.decryptSecret(record!));
}

describe("imported and created wallets keep their secret", () => {
  it("a 64-byte import and a 32-byte seed import store the very secret given", async () => {
    const s = await t.setup();
    for (const kp of [Keypair.generate(), Keypair.generate()]) {
      const full = kp.secretKey;
      for (const text of [bs58.encode(full), bs58.encode(full.subarray(0, 32))]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/v1/wallets/import",
          headers: { "x-api-key": s.apiKey },
          payload: { private_key_base58: text },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect((await storedSecret(s.apiKey, kp.publicKey.toBase58())).equals(Buffer.from(full))).toBe(true);
        await t.app.inject({
          method: "DELETE",
          url: `/v1/wallets/${kp.publicKey.toBase58()}`,
          headers: { "x-api-key": s.apiKey },
        });
      }
    }
  });

  it("setup and create store the secret they return", async () => {
    const s = await t.setup();
    expect((await storedSecret(s.apiKey, s.wallet)).equals(Buffer.from(bs58.decode(s.walletSecret)))).toBe(
      true,
    );
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/wallets",
      headers: { "x-api-key": s.apiKey },
    });
    const body = res.json<{ public_key: string; private_key_base58: string }>();
    const stored = await storedSecret(s.apiKey, body.public_key);
    expect(stored.equals(Buffer.from(bs58.decode(body.private_key_base58)))).toBe(true);
  });

  it("the buffers a secret was encrypted from are zeroed once the wallet is stored", async () => {
    const seen: Uint8Array[] = [];
    const vault: Pick<Vault, "encryptSecret"> = {
      encryptSecret(secret, publicKey) {
        seen.push(secret);
        return testVault().encryptSecret(secret, publicKey);
      },
    };
    const store = {
      addWallet: async (apiKeyId: number, w: NewWallet): Promise<WalletRecord> => ({
        ...w,
        id: 1,
        seq: 1,
        apiKeyId,
        isDefault: false,
        status: "active",
      }),
      listWallets: async () => [],
      setDefaultWallet: async () => undefined,
      deleteWallet: async () => false,
    };
    const deps = { store, vault, clock: () => new Date() } as unknown as Parameters<typeof importWallet>[0];
    // (cast: the fake store implements only the methods these two functions call)
    await importWallet(deps, 1, bs58.encode(Keypair.generate().secretKey), false);
    await importWallet(deps, 1, bs58.encode(Keypair.generate().secretKey.subarray(0, 32)), false);
    await createWallet(deps, 1, false);
    expect(seen).toHaveLength(3);
    for (const s of seen) expect(s.every((b) => b === 0)).toBe(true);
  });
});
