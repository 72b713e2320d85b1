/** Reloads on the events that change what a page shows (pushed by /v1/events, never polled). */
import { useEffect } from "preact/hooks";
import type { ApiEvent } from "./events";
import { useSession } from "./session-context";

/** The event types that change balances or positions. */
export function changesHoldings(e: ApiEvent): boolean {
  return (
    e.type === "position.updated" || e.type === "execution.confirmed" || e.type === "execution.finalized"
  );
}

/** Calls `reload` (at most once per animation frame) when an event `matches`. */
export function useLiveReload(reload: () => void, matches: (e: ApiEvent) => boolean = changesHoldings): void {
  const { events } = useSession();
  useEffect(() => {
    let queued = false;
    return events.on((e) => {
      if (!matches(e) || queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        reload();
      });
    });
  }, [events, reload, matches]);
}
