/**
 * The server-generated mint keypair of a create: never returned, never stored, and wiped once the
 * transaction carrying its signature is signed.
 */
import { randomBytes } from "node:crypto";
import { Keypair } from "@solana/web3.js";

/** A fresh mint keypair and the function that zeroes its secret bytes. */
export interface MintKey {
  keypair: Keypair;
  /** Zeroes the secret; call right after signing (the keypair must not be used afterwards). */
  wipe(): void;
}

/** Generates a mint keypair whose secret bytes this module owns, so they can be zeroed after signing. */
export function newMintKey(): MintKey {
  const seed = randomBytes(32);
  const secret = new Uint8Array(64);
  secret.set(seed);
  // Keypair.generate() would keep the secret in a private array we cannot wipe (its getter returns copies);
  // fromSecretKey keeps a reference to ours instead. The throwaway keypair below only serves the derivation.
  secret.set(Keypair.fromSeed(seed).publicKey.toBytes(), 32);
  seed.fill(0);
  return {
    keypair: Keypair.fromSecretKey(secret, { skipValidation: true }),
    wipe: () => secret.fill(0),
  };
}
