/**
 * Reading the outbox as a page (JSON form) or as an endless, resumable sequence (the stream): every event
 * after the cursor, in id order, each once; woken by the store's wake-ups, with a periodic re-read as the
 * safety net, so a lost notification delays an event but never drops it.
 */
import type { Store } from "../../store/index.js";
import { eventView, isGap, type EventsQuery, type EventView } from "./query.js";

type EventsReader = Pick<Store, "listEvents" | "eventBounds">;

/** A page of events, ascending; pass `next_cursor` as `?after=`. `gap`: events after the cursor were purged. */
export interface EventsPage {
  events: EventView[];
  next_cursor: string;
  gap: boolean;
}

/** One page after the cursor (from the oldest retained event without one). */
export async function eventsPage(store: EventsReader, apiKeyId: number, q: EventsQuery): Promise<EventsPage> {
  const after = q.after ?? 0;
  const bounds = await store.eventBounds(apiKeyId);
  const rows = await store.listEvents({ apiKeyId, after, limit: q.limit, ...filters(q) });
  const last = rows[rows.length - 1];
  // A short page read everything committed up to bounds.last (ids of an account commit in order), so a
  // filtered reader need not scan those again.
  const next = last !== undefined ? last.id : rows.length < q.limit ? Math.max(after, bounds.last) : after;
  return {
    events: rows.map(eventView),
    next_cursor: String(next),
    gap: q.after !== undefined && isGap(bounds, q.after),
  };
}

/**
 * What the stream yields: `ready` once its starting point is fixed (events written after it are delivered), an
 * event, or the notice that events after the cursor were purged.
 */
export type StreamItem =
  | { kind: "ready" }
  | { kind: "event"; event: EventView }
  | { kind: "gap"; after: number; oldest: number | null };

/** Options of `streamEvents`. */
export interface StreamOptions {
  /** Re-read this often without a wake-up (default 2 s). */
  pollMs?: number;
  /** Rows read per query (default 500). */
  batch?: number;
}

/** Every event after the cursor (new events only without one), in order, until `signal` aborts. */
export async function* streamEvents(
  store: EventsReader & Pick<Store, "onEventWake">,
  apiKeyId: number,
  q: EventsQuery,
  signal: AbortSignal,
  options: StreamOptions = {},
): AsyncGenerator<StreamItem> {
  const batch = options.batch ?? 500;
  const waker = createWaker();
  // Subscribed before the first read, so nothing written meanwhile goes unnoticed.
  const off = store.onEventWake((key) => {
    if (key === undefined || key === apiKeyId) waker.ring();
  });
  try {
    const bounds = await store.eventBounds(apiKeyId);
    let cursor = q.after ?? bounds.last;
    // Only now may a client that opened without a cursor count on seeing what it causes next.
    yield { kind: "ready" };
    if (q.after !== undefined && isGap(bounds, q.after)) {
      yield { kind: "gap", after: q.after, oldest: bounds.oldest };
    }
    while (!signal.aborted) {
      const last = (await store.eventBounds(apiKeyId)).last;
      const rows = await store.listEvents({ apiKeyId, after: cursor, limit: batch, ...filters(q) });
      for (const row of rows) {
        if (signal.aborted) return;
        cursor = row.id;
        yield { kind: "event", event: eventView(row) };
      }
      if (rows.length === batch) continue;
      // Everything up to `last` was committed before the read: skip it next time (matters with filters).
      cursor = Math.max(cursor, last);
      await waker.wait(options.pollMs ?? 2_000, signal);
    }
  } finally {
    off();
  }
}

function filters(q: EventsQuery): Pick<EventsQuery, "types" | "kind" | "wallet" | "onlyWallets"> {
  return {
    ...(q.types !== undefined ? { types: q.types } : {}),
    ...(q.kind !== undefined ? { kind: q.kind } : {}),
    ...(q.wallet !== undefined ? { wallet: q.wallet } : {}),
    ...(q.onlyWallets !== undefined ? { onlyWallets: q.onlyWallets } : {}),
  };
}

/** A latch: `ring` wakes the current or the next `wait`. */
function createWaker(): { ring(): void; wait(ms: number, signal: AbortSignal): Promise<void> } {
  let rung = false;
  let wakeUp: (() => void) | undefined;
  return {
    ring() {
      rung = true;
      wakeUp?.();
    },
    wait(ms, signal) {
      if (rung || signal.aborted) {
        rung = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          wakeUp = undefined;
          rung = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done);
        wakeUp = done;
      });
    },
  };
}
