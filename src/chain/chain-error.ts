/**
 * The chain layer's own error: why a chain call failed (`reason`), the text to show (`detail`: the spec's or the
 * upstream's) and the facts that go with it (`extra`: signature, bundle id, logs...). It knows nothing of HTTP:
 * the status a reason answers with is decided above (`domain/execution/failure.ts`, used by the error handler).
 */
export type ChainErrorReason =
  /** The RPC node did not answer a read, a simulation or the tip-account lookup. */
  | "rpc_unavailable"
  /** The simulation refused the transaction: nothing was sent. */
  | "simulation_failed"
  /** The relay answered with a refusal (HTTP or JSON-RPC error): nothing was sent. */
  | "relay_refused"
  /** The relay could not be reached or timed out: the bytes may have left. */
  | "relay_unreachable"
  /** The transaction landed with an error. */
  | "landed_with_error"
  /** The confirmation polling lost the cluster (the transaction may land). */
  | "confirmation_unavailable"
  /** The bundle relay reported the bundle failed, or it landed with an error. */
  | "bundle_failed"
  /** The bundle did not land before the deadline. */
  | "bundle_timed_out";

/** A failed chain call (see the file comment). */
export class ChainError extends Error {
  constructor(
    readonly reason: ChainErrorReason,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = "ChainError";
  }
}
