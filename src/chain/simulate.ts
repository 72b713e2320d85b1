import type { RpcClient } from "./rpc-client.js";
import {
  decodeProgramError,
  describeTransactionError,
  logsExcerpt,
  type ProgramError,
} from "./program-errors.js";

/** Outcome of a simulation: ok, or the error with its decoded program error and a logs excerpt. */
export type SimulationOutcome =
  | { ok: true; unitsConsumed: number | null; logs: string[] }
  | {
      ok: false;
      /** TransactionError JSON as the node returned it. */
      err: unknown;
      /** One-line description (IDL name when known). */
      summary: string;
      programError: ProgramError | null;
      logs: string[];
      unitsConsumed: number | null;
    };

/** Simulates the signed bytes; upstream failures propagate as typed errors (the caller answers 502). */
export async function simulate(
  rpc: Pick<RpcClient, "simulateTransaction">,
  wire: Uint8Array,
): Promise<SimulationOutcome> {
  const { value } = await rpc.simulateTransaction(wire);
  if (value.err === null || value.err === undefined) {
    return { ok: true, unitsConsumed: value.unitsConsumed, logs: logsExcerpt(value.logs) };
  }
  const programError = decodeProgramError(value.err, wire, value.logs);
  return {
    ok: false,
    err: value.err,
    summary: describeTransactionError(value.err, programError),
    programError,
    logs: logsExcerpt(value.logs),
    unitsConsumed: value.unitsConsumed,
  };
}
