/** Setup: a new API key plus its first default wallet, created in one transaction. */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { isoNoZone, type Store } from "../store/index.js";
import type { Vault } from "../vault/index.js";

export interface SetupResult {
  api_key: string;
  wallet_public_key: string;
  wallet_private_key: string;
}

/** Issues a key and a default wallet; both secrets are returned once and stored only hashed / encrypted. */
export async function runSetup(deps: {
  store: Pick<Store, "createApiKeyWithWallet">;
  vault: Pick<Vault, "createApiKey" | "encryptSecret">;
  clock: () => Date;
}): Promise<SetupResult> {
  const key = deps.vault.createApiKey();
  const kp = Keypair.generate();
  const secret = kp.secretKey;
  try {
    const publicKey = kp.publicKey.toBase58();
    await deps.store.createApiKeyWithWallet(key.hash, {
      publicKey,
      createdAt: isoNoZone(deps.clock()),
      ...deps.vault.encryptSecret(secret, publicKey),
    });
    return { api_key: key.plain, wallet_public_key: publicKey, wallet_private_key: bs58.encode(secret) };
  } finally {
    secret.fill(0);
  }
}
