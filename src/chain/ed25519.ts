/**
 * Ed25519 signatures with libsodium (sodium-native's prebuilt binding): about 23 µs of CPU per signature on this
 * machine, against 92-105 µs for Node's own crypto (OpenSSL), measured side by side (docs/decisions.md, issue
 * 18, sixth session). OpenSSL has no import form that takes the public key as given: every `createPrivateKey`
 * derives it from the seed again (a scalar multiplication, as costly as the signature), and Node 20 keeps no
 * key object we would want to outlive the call. libsodium signs with the 64-byte secret (seed ‖ public key) as
 * it is. Signatures are deterministic: the same bytes as before (the unit test checks against a reference).
 *
 * libsodium trusts the public-key half. Signing one message under one seed with two different halves would
 * reveal the seed, so the half must be the seed's own: it is, for every secret this service signs with — a
 * wallet's is derived or checked by domain/wallets/secret-keys.ts before it is stored, then sealed with
 * AES-GCM bound to the wallet's address (vault), and a create's mint key is made there too.
 */
// A CommonJS module whose exports Node cannot list statically: default import only.
import sodium from "sodium-native";
import type { Keypair } from "@solana/web3.js";

/** The 64-byte Ed25519 signature of `message` by `signer`. */
export function signEd25519(message: Uint8Array, signer: Keypair): Uint8Array {
  // web3.js hands out a copy of the 64-byte secret (seed ‖ public key); it is zeroed once used.
  const secret = signer.secretKey;
  try {
    const signature = new Uint8Array(64);
    sodium.crypto_sign_detached(signature, message, secret);
    return signature;
  } finally {
    secret.fill(0);
  }
}
