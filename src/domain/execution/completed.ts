import { ChainError } from "../../chain/chain-error.js";
import { ApiError } from "../../core/errors.js";

/**
 * Adds what an interrupted multi-transaction request already sent to its error (`extra[field]`), keeping the
 * original status (or chain reason) and detail; other errors pass through unchanged.
 */
export function withCompleted(e: unknown, field: string, completed: Record<string, unknown>[]): unknown {
  if (completed.length === 0) return e;
  let wrapped: Error;
  if (e instanceof ApiError) wrapped = new ApiError(e.status, e.detail, { ...e.extra, [field]: completed });
  else if (e instanceof ChainError)
    wrapped = new ChainError(e.reason, e.detail, { ...e.extra, [field]: completed });
  else return e;
  wrapped.stack = e.stack;
  return wrapped;
}
