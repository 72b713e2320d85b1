/**
 * Dry run (issue 19): the pipeline's other ending. Where it would record an execution and send, it asks the
 * key's policy for a verdict (without reserving), simulates and collects a description of each transaction
 * it would send. Nothing reaches the relay and nothing is written.
 */
import { PublicKey, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import type { ChainTransaction } from "../../chain/chain.js";
import type { SimulationOutcome } from "../../chain/simulate.js";

/** Base fee of one signature, lamports. */
const SIGNATURE_FEE_LAMPORTS = 5_000n;
/** The id a dry run hands the pipeline where a recorded execution would have one. */
export const DRY_RUN_EXECUTION_ID = "dry-run";

/** A policy refusal as a dry run reports it. */
export interface DryRunVerdict {
  rule: string;
  detail: string;
}

/** One transaction a dry run would have sent. */
export interface DryRunTransaction {
  /** Position in a bundle, or null for a single transaction. */
  leg: number | null;
  fee_payer: string;
  /** Every signer, in order. */
  signers: string[];
  /** The message's static account keys (a v0 message may load more through its lookup tables). */
  accounts: string[];
  lookup_tables: string[];
  /** Base64 of the transaction message: what the wallet would sign, never a signed transaction. */
  message_base64: string;
  compute_unit_limit: number;
  compute_unit_price_micro_lamports: string;
  /** Lamports: signature fees, priority fee, tip; integer strings. */
  signature_fee_lamports: string;
  priority_fee_lamports: string;
  tip: { account: string; lamports: string } | null;
  /** What the endpoint would have stored with the execution (amounts, quote, venue, ...). */
  details: Record<string, unknown> | null;
  simulation: DryRunSimulation | null;
}

/** A simulation outcome as a dry run reports it. */
export interface DryRunSimulation {
  ok: boolean;
  error: string | null;
  units_consumed: number | null;
  logs: string[];
}

/** The collaborators a dry run needs, and what it collects. */
export interface DryRun {
  /** Simulates signed bytes (the node's simulateTransaction, no signature check needed). */
  simulate(wire: Uint8Array): Promise<SimulationOutcome>;
  /** The first policy refusal met at record time (the spend guard's record-time verdict: policy-step.ts). */
  verdict: DryRunVerdict | null;
  /** Request summaries of the executions that would have been recorded. */
  requests: unknown[];
  transactions: DryRunTransaction[];
}

/** An empty dry run over the given collaborators. */
export function createDryRun(io: Pick<DryRun, "simulate">): DryRun {
  return { ...io, verdict: null, requests: [], transactions: [] };
}

/** The tip transfer of a message: a System transfer to `tipAccount` (static keys only). */
function tipOf(tx: VersionedTransaction, tipAccount: PublicKey | null): DryRunTransaction["tip"] {
  if (tipAccount === null) return null;
  const keys = tx.message.staticAccountKeys;
  for (const ix of tx.message.compiledInstructions) {
    const program = keys[ix.programIdIndex];
    const to = keys[ix.accountKeyIndexes[1] ?? -1];
    const data = Buffer.from(ix.data);
    // System transfer: u32 LE instruction index 2, then u64 LE lamports.
    if (program?.equals(SystemProgram.programId) && to?.equals(tipAccount) && data.length === 12) {
      if (data.readUInt32LE(0) === 2)
        return { account: tipAccount.toBase58(), lamports: data.readBigUInt64LE(4).toString() };
    }
  }
  return { account: tipAccount.toBase58(), lamports: "0" };
}

/** A simulation as reported. */
export function reportSimulation(s: SimulationOutcome): DryRunSimulation {
  return {
    ok: s.ok,
    error: s.ok ? null : s.summary,
    units_consumed: s.unitsConsumed,
    logs: s.logs,
  };
}

/** Describes a signed transaction without its signatures. */
export function describeTransaction(
  tx: ChainTransaction,
  leg: number | null,
  details: Record<string, unknown> | undefined,
  simulation: SimulationOutcome | null,
): DryRunTransaction {
  const decoded = VersionedTransaction.deserialize(tx.wire);
  const message = decoded.message;
  const keys = message.staticAccountKeys.map((k) => k.toBase58());
  const signerCount = message.header.numRequiredSignatures;
  const price = tx.computeUnitPriceMicroLamports;
  // ceil(price × limit / 10^6): what the runtime charges for the compute-unit price.
  const priority = (price * BigInt(tx.computeUnitLimit) + 999_999n) / 1_000_000n;
  return {
    leg,
    fee_payer: keys[0] ?? "",
    signers: keys.slice(0, signerCount),
    accounts: keys,
    lookup_tables: message.addressTableLookups.map((l) => l.accountKey.toBase58()),
    message_base64: Buffer.from(message.serialize()).toString("base64"),
    compute_unit_limit: tx.computeUnitLimit,
    compute_unit_price_micro_lamports: price.toString(),
    signature_fee_lamports: (SIGNATURE_FEE_LAMPORTS * BigInt(signerCount)).toString(),
    priority_fee_lamports: priority.toString(),
    tip: tipOf(decoded, tx.tipAccount),
    details: details ?? null,
    simulation: simulation === null ? null : reportSimulation(simulation),
  };
}
