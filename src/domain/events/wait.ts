/** Waiting for one execution to reach a final status (GET /v1/executions/{id}?wait=). */
import { ApiError, EVENTS } from "../../core/errors.js";
import { isPlausibleId, parseQueryInt } from "../../core/request-fields.js";
import type { ExecutionRecord, ExecutionStatus, Store } from "../../store/index.js";

/** Statuses an execution never leaves. */
export const FINAL_STATUSES: readonly ExecutionStatus[] = ["confirmed", "finalized", "failed", "expired"];

/** Longest wait a request may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 60;

// Wake-ups are hints; a re-read now and then covers one that never came.
const FALLBACK_POLL_MS = 2_000;

/** Whether the execution is final. */
export function isFinal(status: ExecutionStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** Parses `?wait=` (seconds, 0 to 60; absent = 0). */
export function parseWaitSeconds(value: unknown): number {
  return parseQueryInt(value, EVENTS.waitInvalid, { max: MAX_WAIT_SECONDS }) ?? 0;
}

/**
 * The execution of this key, once it is final or when `waitMs` has passed (whichever first), or earlier when
 * `signal` aborts (the caller went away). 404 when the key has no such execution, or (`onlyWallets`, a
 * wallet-bound key) when it was signed by a wallet outside the list.
 */
export async function waitForExecution(
  store: Pick<Store, "findExecution" | "onEventWake">,
  apiKeyId: number,
  id: string,
  waitMs: number,
  signal?: AbortSignal,
  onlyWallets?: readonly string[],
): Promise<ExecutionRecord> {
  const find = (): Promise<ExecutionRecord | undefined> =>
    onlyWallets === undefined
      ? store.findExecution(apiKeyId, id)
      : store.findExecution(apiKeyId, id, onlyWallets);
  const first = isPlausibleId(id) ? await find() : undefined;
  if (first === undefined) throw new ApiError(404, EVENTS.executionNotFound);
  if (waitMs <= 0 || isFinal(first.status)) return first;
  let latest = first;
  await new Promise<void>((resolve) => {
    let reading = false;
    let again = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      off();
      clearTimeout(deadline);
      clearInterval(poll);
      signal?.removeEventListener("abort", finish);
      resolve();
    };
    const read = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const r = await find();
          if (r === undefined) return finish();
          latest = r;
          if (isFinal(r.status)) return finish();
        } while (again && !done);
      } catch {
        // a failed read is retried by the next wake-up or poll
      } finally {
        reading = false;
      }
    };
    const off = store.onEventWake((key) => {
      if (key === undefined || key === apiKeyId) void read();
    });
    const deadline = setTimeout(finish, waitMs);
    const poll = setInterval(() => void read(), FALLBACK_POLL_MS);
    signal?.addEventListener("abort", finish);
    // The status may have changed between the first read and the subscription.
    void read();
  });
  return latest;
}
