import { ApiError } from "../../core/errors.js";
import { answerOf } from "./failure.js";

/**
 * Adds what an interrupted multi-transaction request already sent to its error (`extra[field]`), keeping the
 * original status and detail (a chain failure becomes the ApiError it answers as); other errors pass through.
 */
export function withCompleted(e: unknown, field: string, completed: Record<string, unknown>[]): unknown {
  const answer = answerOf(e);
  if (answer === undefined || completed.length === 0) return e;
  const wrapped = new ApiError(answer.status, answer.detail, { ...answer.extra, [field]: completed });
  wrapped.stack = (e as Error).stack;
  return wrapped;
}
