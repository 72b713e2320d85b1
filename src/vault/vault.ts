/** API-key issuing/hashing and AES-256-GCM envelope encryption of wallet secrets under the master key. */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import type { EncryptedSecret } from "../store/types.js";
import { MasterKeyError, type MasterKey } from "./master-key.js";

/** What decryptSecret needs: the encrypted fields plus the public key bound as associated data. */
export interface SealedWallet extends EncryptedSecret {
  publicKey: string;
}

export interface Vault {
  /** Id of the master key new records are encrypted with. */
  readonly keyId: string;
  /** A new API key (32 random bytes, base58, `lt_` prefix) and its stored hash. */
  createApiKey(): { plain: string; hash: string };
  hashApiKey(plain: string): string;
  encryptSecret(secretKey64: Uint8Array, publicKey: string): EncryptedSecret;
  /** The 64-byte secret key; throws when the record was tampered with or the key id is unknown. */
  decryptSecret(record: SealedWallet): Uint8Array;
  /** Hands a transient Keypair to one operation and zeroes the secret bytes afterwards. */
  withKeypair<T>(record: SealedWallet, fn: (kp: Keypair) => Promise<T>): Promise<T>;
}

const API_KEY_PREFIX = "lt_";

/**
 * Builds the vault. `previous` keys can only decrypt (for rotation: records carrying an older key id stay
 * readable until re-encrypted).
 */
export function createVault(master: MasterKey, previous: readonly MasterKey[] = []): Vault {
  const keys = new Map<string, Buffer>([[master.id, master.key]]);
  for (const k of previous) keys.set(k.id, k.key);

  function decryptSecret(record: SealedWallet): Uint8Array {
    const key = keys.get(record.keyId);
    if (key === undefined) throw new MasterKeyError(`no master key with id ${record.keyId} is configured`);
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(record.nonce, "base64"));
    decipher.setAAD(Buffer.from(record.publicKey, "utf8"));
    decipher.setAuthTag(Buffer.from(record.tag, "base64"));
    const head = decipher.update(Buffer.from(record.ciphertext, "base64"));
    const tail = decipher.final();
    // GCM's final() writes nothing: the plaintext is update()'s own buffer, the one copy the caller zeroes
    // (a concatenation would leave update()'s buffer, the secret, unzeroed as garbage, and allocate again).
    const out = tail.length === 0 ? head : Buffer.concat([head, tail]);
    if (out !== head) head.fill(0);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }

  return {
    keyId: master.id,
    createApiKey() {
      const plain = API_KEY_PREFIX + bs58.encode(randomBytes(32));
      return { plain, hash: this.hashApiKey(plain) };
    },
    hashApiKey(plain) {
      // 256 random bits need no salt or slow hash: SHA-256 is preimage-resistant and allows lookup by hash.
      return createHash("sha256").update(plain, "utf8").digest("hex");
    },
    encryptSecret(secretKey64, publicKey) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", master.key, nonce);
      cipher.setAAD(Buffer.from(publicKey, "utf8"));
      const ct = Buffer.concat([cipher.update(secretKey64), cipher.final()]);
      return {
        ciphertext: ct.toString("base64"),
        nonce: nonce.toString("base64"),
        tag: cipher.getAuthTag().toString("base64"),
        keyId: master.id,
      };
    },
    decryptSecret,
    async withKeypair(record, fn) {
      const secret = decryptSecret(record);
      try {
        // Keypair keeps a reference to `secret` (its getter returns copies), so zeroing `secret` below clears it.
        const kp = Keypair.fromSecretKey(secret, { skipValidation: true });
        return await fn(kp);
      } finally {
        secret.fill(0);
      }
    },
  };
}

/** Start-up check: the configured key must decrypt an existing record (a wrong key fails here, not later). */
export async function verifyVault(
  vault: Vault,
  store: { anyWallet(): Promise<SealedWallet | undefined> },
): Promise<void> {
  const record = await store.anyWallet();
  if (record === undefined) return;
  let secret: Uint8Array;
  try {
    secret = vault.decryptSecret(record);
  } catch {
    throw new MasterKeyError(
      `the configured master key (id ${vault.keyId}) cannot decrypt stored wallets (encrypted with key id ${record.keyId}); check MASTER_KEY / MASTER_KEY_FILE`,
    );
  }
  secret.fill(0);
}
