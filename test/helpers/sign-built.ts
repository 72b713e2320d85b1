/** Signing what the service built for an outside wallet, as the wallet would (the tests hold its keypair). */
import { VersionedTransaction, type Keypair } from "@solana/web3.js";

/** `transaction` (base64, as built) signed by `signer`, base64; signatures already in it are kept. */
export function signBuilt(transaction: string, signer: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"));
  tx.sign([signer]);
  return Buffer.from(tx.serialize()).toString("base64");
}
