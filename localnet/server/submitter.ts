/**
 * The send path shared by the RPC's sendTransaction and the submission relay: optional preflight,
 * the never-land / land-after-N-slots faults, answering before or after execution (`answerOnAcceptance`),
 * and errors shaped like the official RPC's.
 */
import bs58 from "bs58";
import type { Ledger, SimulationResult } from "../ledger/index.js";
import { TransactionRejected, transactionErrorMessage } from "../ledger/index.js";
import { AcceptedSends } from "./accepted-sends.js";
import type { Faults } from "./faults.js";
import { RpcError } from "./json.js";
import { simulationValue } from "./rpc-shapes.js";

/** Maps a rejection to the official RPC's error (-32003 for signatures, -32002 otherwise). */
export function rejectionToRpcError(e: TransactionRejected): RpcError {
  if (e.err === "SignatureFailure") {
    return new RpcError(-32003, `Transaction signature verification failure: ${e.message}`);
  }
  const message = typeof e.err === "string" ? e.message : transactionErrorMessage(e.err);
  return new RpcError(-32002, `Transaction simulation failed: ${message}`, {
    accounts: null,
    err: e.err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: [],
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed: 0,
  });
}

function preflightError(sim: SimulationResult): RpcError {
  return new RpcError(-32002, `Transaction simulation failed: ${transactionErrorMessage(sim.err!)}`, {
    ...simulationValue(sim),
    accounts: null,
  });
}

/** Accepts transactions, lands them now, later, or never, per the faults. */
export class Submitter {
  private pending: { due: bigint; wire: Uint8Array }[] = [];

  constructor(
    private readonly ledger: Ledger,
    private readonly faults: Faults,
    /** Sends answered on acceptance, waiting to execute (shared with the bundle relay, which flushes it). */
    readonly accepted: AcceptedSends = new AcceptedSends(ledger),
  ) {
    ledger.onSlot((slot) => this.landDue(slot));
  }

  /**
   * Submits a transaction; returns its signature. With preflight, a failing simulation is an error
   * (-32002); without it (relays, skipPreflight) a transaction that fails on chain still lands and pays.
   * With `answerOnAcceptance`, a send is answered once checked and executes right after (arrival order kept);
   * a send with preflight first lets every accepted send execute, then simulates, then is accepted.
   */
  submit(wire: Uint8Array, preflight: boolean): string {
    let signature: string;
    try {
      if (preflight) {
        // The simulation must see what every send accepted before this one does.
        this.accepted.flush();
        const sim = this.ledger.simulateTransaction(wire, { sigVerify: true });
        if (sim.err !== null) throw preflightError(sim);
      }
      signature = this.precheck(wire, preflight);
    } catch (e) {
      if (e instanceof TransactionRejected) throw rejectionToRpcError(e);
      throw e;
    }
    if (signature === "") return this.signatureOf(wire);
    if (this.faults.neverLand()) return signature;
    const delay = this.faults.landAfterSlots();
    if (delay > 0) {
      this.pending.push({ due: this.ledger.slot() + BigInt(delay), wire });
      return signature;
    }
    if (this.faults.answerOnAcceptance()) {
      this.accepted.push(wire);
      return signature;
    }
    try {
      this.ledger.processTransaction(wire);
    } catch (e) {
      if (e instanceof TransactionRejected) throw rejectionToRpcError(e);
      throw e;
    }
    return signature;
  }

  /** Validates; returns the signature, or "" for an already-landed resend without preflight (mainnet drops it silently). */
  private precheck(wire: Uint8Array, preflight: boolean): string {
    try {
      this.ledger.precheckTransaction(wire);
      return this.ledger.decodeClientTransaction(wire).id;
    } catch (e) {
      if (!preflight && e instanceof TransactionRejected && e.err === "AlreadyProcessed") return "";
      throw e;
    }
  }

  private signatureOf(wire: Uint8Array): string {
    // First signature = bytes 1..65 of the wire format (after a one-byte shortvec count).
    return bs58.encode(wire.subarray(1, 65));
  }

  private landDue(slot: bigint): void {
    if (this.pending.length === 0) return;
    this.accepted.flush();
    const due = this.pending.filter((p) => p.due <= slot);
    this.pending = this.pending.filter((p) => p.due > slot);
    for (const p of due) {
      try {
        this.ledger.processTransaction(p.wire);
      } catch (e) {
        // Expired or duplicate by now: dropped like an unlanded transaction on mainnet.
        if (!(e instanceof TransactionRejected)) throw e;
      }
    }
  }
}
