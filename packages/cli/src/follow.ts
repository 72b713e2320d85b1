/**
 * Issue 20 item 6: the confirm progress of an execution command from the events stream. While the request
 * waits for its transaction to land, the key's events say what happened so far (recorded, sent with its
 * signature, landed or failed); the spinner line shows the latest. The request's answer stays the result.
 */
import type { ExecutionEvent, LaserTrade } from "@lasertrade/client";

/** The progress text of one event of the execution. */
export function phaseText(e: ExecutionEvent): string {
  const sig = e.signatures[0];
  switch (e.status) {
    case "pending":
      return "recorded, sending";
    case "submitted":
      // Issue 30: the relay accepted the send; confirmation is running.
      return sig !== undefined ? `submitted ${sig}, confirming` : "submitted, confirming";
    case "confirmed":
    case "finalized":
      return `landed (${e.status})`;
    case "timeout":
      return "not landed yet, still watching";
    default:
      return e.status;
  }
}

/** What to follow: by default the next execution of the key; optionally only of this kind or wallet. */
export interface FollowTarget {
  kind?: string;
  wallet?: string;
  /** Start after this event id (tests); default: events from now on. */
  after?: number;
}

/**
 * Calls `onPhase` for each event of the first execution matching `target` that appears on the stream (the one
 * this command started: the CLI runs one execution at a time), until `signal` aborts or it is final.
 */
export async function followExecution(
  client: Pick<LaserTrade, "events">,
  target: FollowTarget,
  onPhase: (text: string, event: ExecutionEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let executionId: string | undefined;
  try {
    for await (const e of client.events(
      {
        ...(target.kind !== undefined ? { kind: target.kind } : {}),
        ...(target.wallet !== undefined ? { wallet: target.wallet } : {}),
        ...(target.after !== undefined ? { after: target.after } : {}),
      },
      { signal },
    )) {
      executionId ??= e.execution_id;
      if (e.execution_id !== executionId) continue;
      onPhase(phaseText(e), e);
      if (["confirmed", "finalized", "failed", "expired"].includes(e.status)) return;
    }
  } catch {
    // Progress only: a stream that cannot be had leaves the spinner as it was; the request decides.
  }
}
