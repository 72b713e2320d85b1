/**
 * Ed25519 wallet secrets as 64-byte buffers (seed ‖ public key) that the caller owns and zeroes. The public
 * half is derived with node:crypto, so no library object (a web3.js Keypair keeps a private copy its getter
 * never exposes) holds a second copy of the secret that nobody can wipe.
 */
import { createPrivateKey, createPublicKey, randomBytes, timingSafeEqual } from "node:crypto";

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");
/** Length of the DER prefix of an SPKI Ed25519 public key; the 32-byte key follows it. */
const SPKI_ED25519_PREFIX_LENGTH = 12;

/** The Ed25519 public key of a 32-byte seed. */
function publicKeyOf(seed: Uint8Array): Buffer {
  const der = Buffer.concat([PKCS8_ED25519, seed]);
  try {
    const spki = createPublicKey(createPrivateKey({ key: der, format: "der", type: "pkcs8" })).export({
      format: "der",
      type: "spki",
    });
    return spki.subarray(SPKI_ED25519_PREFIX_LENGTH);
  } finally {
    der.fill(0);
  }
}

/** A new 64-byte buffer holding `seed` and its public key (the seed is left as it was). */
export function secretKeyFromSeed(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new Error("an Ed25519 seed is 32 bytes");
  const secret = new Uint8Array(64);
  secret.set(seed);
  secret.set(publicKeyOf(seed), 32);
  return secret;
}

/** A fresh random 64-byte secret key. */
export function newSecretKey(): Uint8Array {
  const seed = randomBytes(32);
  try {
    return secretKeyFromSeed(seed);
  } finally {
    seed.fill(0);
  }
}

/** Whether the last 32 bytes of a 64-byte secret key are the public key of its first 32. */
export function publicHalfMatches(secret: Uint8Array): boolean {
  if (secret.length !== 64) return false;
  return timingSafeEqual(publicKeyOf(secret.subarray(0, 32)), secret.subarray(32));
}
