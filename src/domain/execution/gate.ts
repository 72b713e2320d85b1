import type { ChainCaches } from "../../chain/caches.js";
import { ApiError, EXECUTION } from "../../core/errors.js";

/**
 * The chain of an app, or 503: when the app was built without one (tests of non-chain routes), or while its
 * caches have not loaded yet (the RPC was unreachable at start-up and the process keeps retrying).
 */
export function requireChain<C>(chain: C | undefined): C {
  if (chain === undefined) throw new ApiError(503, EXECUTION.chainUnavailable);
  // Callers hold narrower slices of Chain; the readiness check applies when the slice carries the caches.
  const caches = (chain as { caches?: Partial<Pick<ChainCaches, "blockhash">> }).caches;
  if (caches?.blockhash !== undefined) {
    try {
      caches.blockhash();
    } catch {
      throw new ApiError(503, EXECUTION.chainNotReady);
    }
  }
  return chain;
}
