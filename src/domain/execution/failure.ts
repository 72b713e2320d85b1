import { SubmissionError } from "../../chain/submit.js";
import { ApiError, SPEC } from "../../core/errors.js";
import type { ExecutionStatus } from "../../store/index.js";
import type { ExecutionOutcome } from "./types.js";

/**
 * How a failed submission is stored: refused before sending, or landed with an error → failed; a bundle
 * that timed out → timeout; anything that may have been sent without a verdict stays submitted, with the
 * error, so the signature can be checked later.
 */
export function failureOutcome(e: unknown): ExecutionOutcome {
  if (e instanceof SubmissionError) {
    const confirmationStatus =
      typeof e.extra.confirmation_status === "string" ? e.extra.confirmation_status : null;
    const error = { status: e.status, detail: e.detail, ...e.extra };
    let status: ExecutionStatus;
    if (!e.maybeSent || e.landedWithError || e.detail === SPEC.bundle.failed) status = "failed";
    else if (e.detail === SPEC.bundle.timedOut) status = "timeout";
    else status = "submitted";
    const bundleId = typeof e.extra.bundle_id === "string" ? e.extra.bundle_id : undefined;
    return { status, confirmationStatus, error, ...(bundleId !== undefined ? { bundleId } : {}) };
  }
  if (e instanceof ApiError) {
    return {
      status: "failed",
      confirmationStatus: null,
      error: { status: e.status, detail: e.detail, ...e.extra },
    };
  }
  // An unexpected error may have come after the send: the outcome is unknown, so it stays pending.
  return {
    status: "pending",
    confirmationStatus: null,
    error: { detail: "internal error; outcome unknown" },
  };
}
