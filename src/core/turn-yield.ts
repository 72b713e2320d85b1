/**
 * Work that gives way to more urgent work: while any registered predicate answers busy, `pass()` is a wait of one
 * turn of the event loop (setImmediate), so the microtasks already queued — the urgent work that runs to its end
 * without waiting on I/O — go first. Issue 31: the market feed's fan-out and the warm state's event refresh give
 * way to the order engine's evaluation (and the fires it starts) of the same change.
 */
export class TurnYield {
  private readonly busy = new Set<() => boolean>();

  /** Registers `busy`; returns its removal. */
  add(busy: () => boolean): () => void {
    this.busy.add(busy);
    return () => this.busy.delete(busy);
  }

  /** Undefined when nothing is busy (go on at once), else the next turn. */
  pass(): Promise<void> | undefined {
    for (const b of this.busy) if (b()) return new Promise((resolve) => setImmediate(resolve));
    return undefined;
  }
}

/** What gives way (MarketFeed, EventRefresh): `busy` asks it to wait a turn; returns the removal. */
export interface GivesWay {
  yieldTo(busy: () => boolean): () => void;
}
