import { ApiError } from "../../core/errors.js";

/**
 * Adds what an interrupted multi-transaction request already sent to its error (`extra[field]`), keeping the
 * original status and detail; non-API errors pass through unchanged.
 */
export function withCompleted(e: unknown, field: string, completed: Record<string, unknown>[]): unknown {
  if (!(e instanceof ApiError) || completed.length === 0) return e;
  const wrapped = new ApiError(e.status, e.detail, { ...e.extra, [field]: completed });
  wrapped.stack = e.stack;
  return wrapped;
}
