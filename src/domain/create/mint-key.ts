/**
 * The server-generated mint keypair of a create: never returned, never stored, and wiped once the
 * transaction carrying its signature is signed.
 */
import { Keypair } from "@solana/web3.js";
import { newSecretKey } from "../wallets/secret-keys.js";

/** A fresh mint keypair and the function that zeroes its secret bytes. */
export interface MintKey {
  keypair: Keypair;
  /** Zeroes the secret; call right after signing (the keypair must not be used afterwards). */
  wipe(): void;
}

/** Generates a mint keypair whose secret bytes this module owns, so they can be zeroed after signing. */
export function newMintKey(): MintKey {
  // Keypair.generate() would keep the secret in a private array we cannot wipe (its getter returns copies);
  // fromSecretKey keeps a reference to ours instead.
  const secret = newSecretKey();
  return {
    keypair: Keypair.fromSecretKey(secret, { skipValidation: true }),
    wipe: () => secret.fill(0),
  };
}
