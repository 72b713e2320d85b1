/** A signed SOL transfer as a relay or RPC takes it, for the localnet's own tests. */
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";

/**
 * `from` sends `lamports` to `to` (and, with `tip`, a second transfer to a tip account), signed against
 * `latest`; returns the wire transaction in base64.
 */
export function signedTransfer(
  from: Keypair,
  to: PublicKey,
  lamports: number,
  latest: { blockhash: string; lastValidBlockHeight: number },
  tip?: { to: string; lamports: number },
): string {
  const tx = new Transaction({ feePayer: from.publicKey, ...latest }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
  );
  if (tip)
    tx.add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: new PublicKey(tip.to),
        lamports: tip.lamports,
      }),
    );
  tx.sign(from);
  return Buffer.from(tx.serialize()).toString("base64");
}
