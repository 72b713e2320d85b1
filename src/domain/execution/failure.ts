import { ChainError, type ChainErrorReason } from "../../chain/chain-error.js";
import { SubmissionError } from "../../chain/submit.js";
import { ApiError } from "../../core/errors.js";
import type { ExecutionStatus } from "../../store/index.js";
import type { ExecutionOutcome } from "./types.js";

/**
 * The HTTP status of each chain failure (the spec's): a refused simulation is the caller's 400 (its detail
 * names the endpoint's rule); every other failure is the upstream's, a 502.
 */
const CHAIN_STATUS: Record<ChainErrorReason, number> = {
  simulation_failed: 400,
  rpc_unavailable: 502,
  relay_refused: 502,
  relay_unreachable: 502,
  landed_with_error: 502,
  confirmation_unavailable: 502,
  bundle_failed: 502,
  bundle_timed_out: 502,
};

/** An error the API answers with its own status and detail: an ApiError, or a chain failure mapped to its status. */
export interface AnsweredError {
  status: number;
  detail: string;
  extra: Record<string, unknown>;
  /** A chain failure's reason (its code when the detail is the upstream's own words). */
  chainReason?: ChainErrorReason;
}

/** The answer of a known error (`extra` is the error's own object); undefined for anything else (a 500). */
export function answerOf(e: unknown): AnsweredError | undefined {
  if (e instanceof ApiError) return e;
  if (e instanceof ChainError)
    return { status: CHAIN_STATUS[e.reason], detail: e.detail, extra: e.extra, chainReason: e.reason };
  return undefined;
}

/**
 * How a failed submission is stored: refused before sending, or landed with an error → failed; a bundle
 * that timed out → timeout; anything that may have been sent without a verdict stays submitted, with the
 * error, so the signature can be checked later.
 */
export function failureOutcome(e: unknown): ExecutionOutcome {
  if (e instanceof SubmissionError) {
    const confirmationStatus =
      typeof e.extra.confirmation_status === "string" ? e.extra.confirmation_status : null;
    const error = { status: CHAIN_STATUS[e.reason], detail: e.detail, ...e.extra };
    let status: ExecutionStatus;
    if (!e.maybeSent || e.landedWithError || e.reason === "bundle_failed") status = "failed";
    else if (e.reason === "bundle_timed_out") status = "timeout";
    else status = "submitted";
    const bundleId = typeof e.extra.bundle_id === "string" ? e.extra.bundle_id : undefined;
    return { status, confirmationStatus, error, ...(bundleId !== undefined ? { bundleId } : {}) };
  }
  const answer = answerOf(e);
  if (answer !== undefined) {
    return {
      status: "failed",
      confirmationStatus: null,
      error: { status: answer.status, detail: answer.detail, ...answer.extra },
    };
  }
  // An unexpected error may have come after the send: the outcome is unknown, so it stays pending.
  return {
    status: "pending",
    confirmationStatus: null,
    error: { detail: "internal error; outcome unknown" },
  };
}
