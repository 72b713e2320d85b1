import { describe, expect, it } from "vitest";
import { resolveLegWallets } from "../../../../src/domain/bundle/wallets.js";
import { FOUNDATION } from "../../../../src/core/errors.js";
import type { WalletRecord } from "../../../../src/store/index.js";

const record = (publicKey: string, isDefault = false): WalletRecord => ({
  id: 1,
  seq: 1,
  apiKeyId: 7,
  publicKey,
  status: "active",
  isDefault,
  createdAt: "2026-01-01T00:00:00.000",
  ciphertext: "",
  nonce: "",
  tag: "",
  keyId: "",
});

function fakeStore(wallets: WalletRecord[]) {
  const calls = { findWallet: 0, findDefaultWallet: 0 };
  return {
    calls,
    store: {
      async findWallet(apiKeyId: number, publicKey: string) {
        calls.findWallet += 1;
        return apiKeyId === 7 ? wallets.find((w) => w.publicKey === publicKey) : undefined;
      },
      async findDefaultWallet(apiKeyId: number) {
        calls.findDefaultWallet += 1;
        return apiKeyId === 7 ? wallets.find((w) => w.isDefault) : undefined;
      },
    },
  };
}

describe("resolveLegWallets", () => {
  it("uses the default wallet for legs without one (looked up once) and the named wallet otherwise", async () => {
    const { store, calls } = fakeStore([record("D", true), record("A"), record("B")]);
    const out = await resolveLegWallets(store, 7, [{}, { wallet: "A" }, {}, { wallet: "B" }]);
    expect(out.map((w) => w.publicKey)).toEqual(["D", "A", "D", "B"]);
    expect(calls.findDefaultWallet).toBe(1);
  });

  it("a wallet the key does not hold is 404 wallet not found naming the leg", async () => {
    const { store } = fakeStore([record("D", true), record("A")]);
    await expect(resolveLegWallets(store, 7, [{}, { wallet: "A" }, { wallet: "X" }])).rejects.toMatchObject({
      status: 404,
      detail: FOUNDATION.walletNotFound,
      extra: { index: 2 },
    });
  });

  it("a key without wallets is the foundation's 400", async () => {
    const { store } = fakeStore([]);
    await expect(resolveLegWallets(store, 7, [{}])).rejects.toMatchObject({
      status: 400,
      detail: FOUNDATION.noWallets,
    });
  });
});
