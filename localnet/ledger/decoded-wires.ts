/**
 * Client transactions decoded once per wire (issue 18). A relay send was decoded by the relay (tip check),
 * again by the pre-check and, answered on acceptance, a third time with its signatures verified again when
 * it executed: web3.js's decoding (a BN per public key) and the ed25519 check were most of the localnet's CPU
 * per send, and the localnet shares the bench machine's cores with the service it serves. The decoding, the
 * transaction id and a successful signature check are pure functions of the bytes, so they are kept per wire
 * object, with a copy of the bytes compared on every hit: a caller that changes the bytes in place gets a
 * fresh decoding, never a stale one.
 */
import type { VersionedTransaction } from "@solana/web3.js";
import { decodeTransaction, transactionId } from "./wire.js";

/** One wire's decoding: the transaction, its id (first signature, base58), and whether its signatures verified. */
export interface DecodedWire {
  readonly tx: VersionedTransaction;
  readonly id: string;
  verified: boolean;
}

/** The decodings of the wires a ledger saw, held as long as the wire objects live (a WeakMap). */
export class DecodedWires {
  private readonly byWire = new WeakMap<Uint8Array, { bytes: Buffer; decoded: DecodedWire }>();

  /** The decoding of `wire`; throws TransactionRejected(SanitizeFailure) as `decodeTransaction` does. */
  decode(wire: Uint8Array): DecodedWire {
    const seen = this.byWire.get(wire);
    if (seen !== undefined && seen.bytes.equals(wire)) return seen.decoded;
    const tx = decodeTransaction(wire);
    const decoded: DecodedWire = { tx, id: transactionId(tx), verified: false };
    this.byWire.set(wire, { bytes: Buffer.from(wire), decoded });
    return decoded;
  }

  /**
   * Drops the decoding of `wire`. A landed transaction's record keeps its wire for as long as the ledger
   * lives, which would keep the decoding (a copy of the bytes and a PublicKey per account) alive with it.
   */
  forget(wire: Uint8Array): void {
    this.byWire.delete(wire);
  }
}
