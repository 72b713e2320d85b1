import { SPEC } from "../core/errors.js";
import type { BundleRelayClient } from "./bundle-relay-client.js";
import { ChainError } from "./chain-error.js";
import type { Clock } from "./clock.js";

/** What a bundle the relay reports `Failed` says when no leg's own simulation tells more (Jito gives no reason). */
export const RELAY_FAILED_REASON =
  "the bundle relay reported the bundle Failed without a reason, and no leg failed its simulation on its own";

/** A landed status's error as one line (the node's error object, e.g. {"InstructionError":[0,{"Custom":1}]}). */
function errorText(err: unknown): string {
  return typeof err === "string" ? err : JSON.stringify(err);
}

/** A bundle observed landed. */
export interface BundleConfirmation {
  confirmed: true;
  confirmationStatus: "confirmed" | "finalized";
  slot: number;
}

/** Inputs of `confirmBundle`. */
export interface ConfirmBundleInput {
  bundleRelay: Pick<BundleRelayClient, "getInflightBundleStatuses" | "getBundleStatuses">;
  bundleId: string;
  /** About 30 s per the spec. */
  timeoutMs: number;
  pollMs: number;
  clock: Clock;
}

/**
 * Polls the bundle until it lands at confirmed/finalized. Invalid or absent while propagating is not a
 * failure; Failed, or a landed status carrying an error, fails early (`bundle_failed`); time up is
 * `bundle_timed_out`.
 */
export async function confirmBundle(input: ConfirmBundleInput): Promise<BundleConfirmation> {
  const { clock, bundleId } = input;
  const start = clock.now();
  for (;;) {
    try {
      const [inflight] = await input.bundleRelay.getInflightBundleStatuses([bundleId]);
      // `reason` beside the spec's detail on every failure (issue 30); the failing leg's simulation, when one
      // fails, replaces it with a sharper one (submit.ts).
      if (inflight?.status === "Failed")
        throw new ChainError("bundle_failed", SPEC.bundle.failed, {
          bundle_id: bundleId,
          reason: RELAY_FAILED_REASON,
        });
      // Landed statuses are only in getBundleStatuses; ask once the block engine says it landed (or lost track).
      if (inflight === null || inflight === undefined || inflight.status === "Landed") {
        const [landed] = await input.bundleRelay.getBundleStatuses([bundleId]);
        if (landed) {
          if (landed.err !== null) {
            throw new ChainError("bundle_failed", SPEC.bundle.failed, {
              bundle_id: bundleId,
              error: landed.err,
              reason: `the bundle landed with an error: ${errorText(landed.err)}`,
            });
          }
          const level = landed.confirmationStatus;
          if (level === "confirmed" || level === "finalized") {
            return { confirmed: true, confirmationStatus: level, slot: landed.slot };
          }
        }
      }
    } catch (e) {
      if (e instanceof ChainError) throw e;
      // A failed status read is not a bundle failure: keep polling until the deadline.
    }
    const elapsed = clock.now() - start;
    if (elapsed >= input.timeoutMs)
      // The spec's 502, carrying what a trade's 200 says of a wait that ended first (issue 30): not a failure.
      throw new ChainError("bundle_timed_out", SPEC.bundle.timedOut, {
        bundle_id: bundleId,
        confirmed: false,
        confirmation_status: null,
      });
    await clock.sleep(Math.max(0, Math.min(input.pollMs, input.timeoutMs - elapsed)));
  }
}
