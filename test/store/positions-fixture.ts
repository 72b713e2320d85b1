/** What the positions store tests share: fresh addresses and an account holding one wallet. */
import { Keypair } from "@solana/web3.js";
import type { Store } from "../../src/store/index.js";

/** A fresh base58 address (wallets and mints of the ledger). */
export const address = (): string => Keypair.generate().publicKey.toBase58();

/** A new account with one wallet at a fresh address: its id and the wallet. */
export async function account(store: Store): Promise<{ id: number; wallet: string }> {
  const wallet = address();
  const { apiKey } = await store.createApiKeyWithWallet(`p-${Math.random()}`, {
    publicKey: wallet,
    ciphertext: "c",
    nonce: "n",
    tag: "t",
    keyId: "k",
    createdAt: "2026-01-01T00:00:00.000",
  });
  return { id: apiKey.id, wallet };
}
