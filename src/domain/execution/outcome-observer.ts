import { overlay } from "../../core/overlay.js";
import type { ExecutionKind, ExecutionStatus, Store } from "../../store/index.js";

/** Told of each outcome `recordOutcome` wrote: the execution's kind and stored status, nothing else. */
export type OutcomeObserver = (kind: ExecutionKind, status: ExecutionStatus) => void;

/**
 * The store with every outcome write (an `updateExecution` carrying a status, which only `recordOutcome`
 * makes) reported to `observe` — the metrics hook. The store is the one collaborator every execution path
 * hands to this pipeline unchanged, so wrapping it once in the app reaches them all. An outcome whose write
 * failed is not reported (its kind is unknown here); an observer that throws is ignored.
 */
export function observeOutcomes<S extends Pick<Store, "updateExecution">>(
  store: S,
  observe: OutcomeObserver,
): S {
  // Typed as the store's own method: a generic S could narrow it further, which the compiler cannot check.
  const own: Pick<Store, "updateExecution"> = {
    async updateExecution(id, patch) {
      const record = await store.updateExecution(id, patch);
      if (record !== undefined && patch.status !== undefined) {
        try {
          observe(record.kind, record.status);
        } catch {
          // metrics must never fail an execution
        }
      }
      return record;
    },
  };
  return overlay(store, own as Partial<S>);
}
