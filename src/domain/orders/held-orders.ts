/**
 * What the in-process books of orders (price orders, snipes, copies) share: a reload of an order never replaces a
 * newer version of it, and the fires under way are tracked until they settle (tests and shutdown wait on them).
 */
import type { OrderRecord } from "../../store/index.js";

/** An order a book holds, with its parsed spec. */
export interface HeldOrder<S> {
  record: OrderRecord;
  spec: S;
}

/** Holds `record` with `spec` unless a newer version of it is held (a stale reload loses); true when held. */
export function holdNewest<S>(orders: Map<string, HeldOrder<S>>, record: OrderRecord, spec: S): boolean {
  const known = orders.get(record.id);
  if (known !== undefined && known.record.version > record.version) return false;
  orders.set(record.id, { record, spec });
  return true;
}

/** Tracks `work` in `inflight` until it settles; its failure goes to `onError`. */
export function trackInflight(
  inflight: Set<Promise<void>>,
  work: Promise<void>,
  onError: (e: unknown) => void,
): void {
  const t = work.catch(onError).finally(() => inflight.delete(t));
  inflight.add(t);
}
