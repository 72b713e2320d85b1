// The functions of sodium-native (4.x, libsodium's prebuilt binding) the service and the localnet call; the package ships
// no types of its own, and @types/sodium-native describes an older major.
declare module "sodium-native" {
  const sodium: {
    /** libsodium's crypto_sign_detached: the Ed25519 signature of `message` by `secretKey` (seed ‖ public key). */
    crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
    /** libsodium's crypto_sign_verify_detached: whether `signature` of `message` is valid for the 32-byte `publicKey`. */
    crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  };
  export default sodium;
}
