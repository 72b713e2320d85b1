/** Setup: a new API key plus its first default wallet, created in one transaction. */
import bs58 from "bs58";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { newSecretKey } from "./secret-keys.js";
import { withSealedKeypair } from "./wallets.js";

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
  return withSealedKeypair(deps, newSecretKey(), async (wallet, secret) => {
    await deps.store.createApiKeyWithWallet(key.hash, wallet);
    return {
      api_key: key.plain,
      wallet_public_key: wallet.publicKey,
      wallet_private_key: bs58.encode(secret),
    };
  });
}
