import type { BundleRelayClient } from "./bundle-relay-client.js";
import { ChainError, type ChainErrorReason } from "./chain-error.js";
import type { Clock } from "./clock.js";
import { confirmBundle } from "./confirm-bundle.js";
import { confirmSignature, type OnChainFailure } from "./confirm.js";
import { programErrorFields } from "./program-errors.js";
import type { RelayClient } from "./relay-client.js";
import type { Commitment, RpcClient } from "./rpc-client.js";
import { simulate } from "./simulate.js";
import { HttpError, RpcError, upstreamDetail } from "./upstream-errors.js";

/**
 * A failed submission. It is a ChainError (reason, detail, extra) and also tells the caller whether the
 * transaction may have reached the cluster, so the execution record can be marked failed (nothing sent) or
 * left for reconciliation (maybe sent).
 */
export class SubmissionError extends ChainError {
  constructor(
    reason: ChainErrorReason,
    detail: string,
    extra: Record<string, unknown>,
    /** False only when the bytes certainly never left (simulation refused, relay rejected). */
    readonly maybeSent: boolean,
    /** True when the transaction landed with an error. */
    readonly landedWithError = false,
  ) {
    super(reason, detail, extra);
    this.name = "SubmissionError";
  }
}

/** Polling settings for single transactions. */
export interface ConfirmSettings {
  timeoutMs: number;
  pollMs: number;
  rebroadcastMs: number;
  clock: Clock;
}

/** Inputs of `submitAndConfirm`. The caller records the execution (pending, with the signature) BEFORE calling. */
export interface SubmitInput {
  rpc: Pick<
    RpcClient,
    "simulateTransaction" | "getSignatureStatuses" | "getBlockHeight" | "getTransactionLogs"
  >;
  relay: Pick<RelayClient, "sendTransaction">;
  signature: string;
  wire: Uint8Array;
  lastValidBlockHeight: number;
  simulate: boolean;
  confirm: boolean;
  /** The spec's 400 text for a failed simulation (e.g. SPEC.trade.simulationFailed). */
  simulationFailedDetail: string;
  settings: ConfirmSettings;
  /** Called once the relay accepted the bytes, before confirmation starts (issue 30: the `submitted` event). */
  onSent?: () => void;
}

/** What the response needs from a submission. */
export interface SubmitResult {
  signature: string;
  confirmed: boolean;
  /** Null when confirm was false or nothing was observed. */
  confirmationStatus: Commitment | null;
  /** Milliseconds spent simulating + sending, and confirming (0 when skipped). */
  timingMs: { sender: number; confirmation: number };
}

/**
 * Simulates the signed bytes before a send: a refusal is `simulation_failed` with the endpoint's text, the
 * simulation error, the decoded program error and the logs; an unreachable node is `rpc_unavailable`. Nothing
 * was sent either way. Also the first variant of a raced execution.
 */
export async function simulateOrRefuse(
  rpc: Pick<RpcClient, "simulateTransaction">,
  wire: Uint8Array,
  signature: string,
  simulationFailedDetail: string,
): Promise<void> {
  let outcome;
  try {
    outcome = await simulate(rpc, wire);
  } catch (e) {
    throw new SubmissionError("rpc_unavailable", upstreamDetail(e), { signature }, false);
  }
  if (!outcome.ok) {
    throw new SubmissionError(
      "simulation_failed",
      simulationFailedDetail,
      {
        simulation_error: outcome.summary,
        ...(outcome.programError ? programErrorFields(outcome.programError) : {}),
        logs: outcome.logs,
      },
      false,
    );
  }
}

/**
 * simulate (optional) → send through the relay → confirm (optional).
 * Failed simulation: `simulation_failed` with `simulationFailedDetail`, nothing sent. Upstream failure: the
 * upstream detail and the signature. Landed with an error: the decoded program error and logs.
 * A confirmation timeout is not an error: confirmed false.
 */
export async function submitAndConfirm(input: SubmitInput): Promise<SubmitResult> {
  const { signature, wire, settings } = input;
  const clock = settings.clock;
  const t0 = clock.now();
  if (input.simulate) await simulateOrRefuse(input.rpc, wire, signature, input.simulationFailedDetail);
  try {
    await input.relay.sendTransaction(wire);
  } catch (e) {
    // An HTTP or JSON-RPC rejection means the relay refused the bytes; a timeout or reset may hide a send.
    throw relayError(e, { signature });
  }
  input.onSent?.();
  const t1 = clock.now();
  if (!input.confirm) {
    return {
      signature,
      confirmed: false,
      confirmationStatus: null,
      timingMs: { sender: t1 - t0, confirmation: 0 },
    };
  }
  const result = await confirmSignature({
    rpc: input.rpc,
    relay: input.relay,
    signature,
    wire,
    lastValidBlockHeight: input.lastValidBlockHeight,
    timeoutMs: settings.timeoutMs,
    pollMs: settings.pollMs,
    rebroadcastMs: settings.rebroadcastMs,
    clock,
  });
  if (result.failure) {
    const { detail, extra } = onChainFailureError(signature, result.failure, result.confirmationStatus);
    throw new SubmissionError("landed_with_error", detail, extra, true, true);
  }
  if (result.unreachable !== undefined) {
    throw new SubmissionError("confirmation_unavailable", result.unreachable, { signature }, true);
  }
  return {
    signature,
    confirmed: result.confirmed,
    confirmationStatus: result.confirmationStatus,
    timingMs: { sender: t1 - t0, confirmation: clock.now() - t1 },
  };
}

/** A relay send that failed: an HTTP or JSON-RPC rejection means the relay refused the bytes; a timeout or a
 * reset may hide a send. */
function relayError(e: unknown, extra: Record<string, unknown>): SubmissionError {
  const refused = e instanceof HttpError || e instanceof RpcError;
  return new SubmissionError(
    refused ? "relay_refused" : "relay_unreachable",
    upstreamDetail(e),
    extra,
    !refused,
  );
}

/** Inputs of `submitBundle`. The caller records the legs (pending, with their signatures) BEFORE calling. */
export interface SubmitBundleInput {
  bundleRelay: Pick<BundleRelayClient, "sendBundle" | "getInflightBundleStatuses" | "getBundleStatuses">;
  wires: Uint8Array[];
  signatures: string[];
  confirm: boolean;
  /** When given, a bundle the relay reports failed gets its legs simulated to name the failing one. */
  rpc?: Pick<RpcClient, "simulateTransaction">;
  timeoutMs: number;
  pollMs: number;
  clock: Clock;
  /** Called once the relay accepted the bundle, before confirmation starts. */
  onSent?: () => void;
}

/** What the bundle response needs. */
export interface SubmitBundleResult {
  bundleId: string;
  confirmed: boolean;
  confirmationStatus: "confirmed" | "finalized" | null;
}

/** sendBundle → (confirm) poll per the bundle rules. Relay failure: its detail and the signatures. */
export async function submitBundle(input: SubmitBundleInput): Promise<SubmitBundleResult> {
  let bundleId: string;
  try {
    bundleId = await input.bundleRelay.sendBundle(input.wires);
  } catch (e) {
    throw relayError(e, { signatures: input.signatures });
  }
  input.onSent?.();
  if (!input.confirm) return { bundleId, confirmed: false, confirmationStatus: null };
  try {
    const landed = await confirmBundle({
      bundleRelay: input.bundleRelay,
      bundleId,
      timeoutMs: input.timeoutMs,
      pollMs: input.pollMs,
      clock: input.clock,
    });
    return { bundleId, confirmed: true, confirmationStatus: landed.confirmationStatus };
  } catch (e) {
    if (e instanceof ChainError) {
      const why = e.reason === "bundle_failed" ? await failingLeg(input) : {};
      throw new SubmissionError(
        e.reason,
        e.detail,
        { ...e.extra, ...why, signatures: input.signatures },
        true,
      );
    }
    throw e;
  }
}

/**
 * Why a failed bundle failed: the first leg whose simulation fails, with its error, program error and logs.
 * Legs run in order, so a later leg is simulated only when the earlier ones pass on their own (a create-led
 * buy cannot pass before its create landed: then only the legs up to it are named). Nothing when no rpc was
 * given or every simulated leg passes.
 */
async function failingLeg(input: SubmitBundleInput): Promise<Record<string, unknown>> {
  if (input.rpc === undefined) return {};
  for (const [index, wire] of input.wires.entries()) {
    let outcome;
    try {
      outcome = await simulate(input.rpc, wire);
    } catch {
      return {};
    }
    if (!outcome.ok) {
      return {
        failed_leg: index,
        reason: outcome.summary,
        ...(outcome.programError ? programErrorFields(outcome.programError) : {}),
        logs: outcome.logs,
      };
    }
    // A create-led bundle's later legs need the earlier ones landed: stop after the first leg passes.
    if (index === 0 && input.wires.length > 1) return {};
  }
  return {};
}

/**
 * The error body of a transaction that landed with an error: the same for the request that waited on it and for
 * reconciliation settling it later.
 */
export function onChainFailureError(
  signature: string,
  f: Pick<OnChainFailure, "summary" | "programError" | "logs">,
  confirmationStatus: string | null,
): { detail: string; extra: Record<string, unknown> } {
  return {
    detail: `transaction failed on chain: ${f.summary}`,
    extra: {
      signature,
      confirmation_status: confirmationStatus,
      ...(f.programError ? programErrorFields(f.programError) : {}),
      logs: f.logs,
    },
  };
}
