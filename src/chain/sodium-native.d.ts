// The one function of sodium-native (4.x, libsodium's prebuilt binding) this service calls; the package ships
// no types of its own, and @types/sodium-native describes an older major.
declare module "sodium-native" {
  const sodium: {
    /** libsodium's crypto_sign_detached: the Ed25519 signature of `message` by `secretKey` (seed ‖ public key). */
    crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
  };
  export default sodium;
}
