/**
 * The heartbeat of a claimed order: its lease is renewed every third of it while its fire runs, so a fire slower
 * than the lease (a loaded machine, a slow RPC) is never reclaimed by another process before its execution
 * record exists (a reclaim then reopens it, and it would be sent twice).
 */
import type { Store } from "../../store/index.js";

/** What the heartbeat needs of the engine. */
export interface LeaseDeps {
  store: Pick<Store, "renewOrderLease">;
  owner: string;
  clock: () => Date;
  leaseMs: number;
  onError: (e: unknown) => void;
}

/** Starts renewing the lease of order `id` held by `deps.owner`; clear the timer when the fire has settled. */
export function holdLease(deps: LeaseDeps, id: string): NodeJS.Timeout {
  const renew = (): void => {
    const until = deps.clock().getTime() + deps.leaseMs;
    void deps.store.renewOrderLease(id, deps.owner, until).catch(deps.onError);
  };
  const t = setInterval(renew, Math.max(10, Math.floor(deps.leaseMs / 3)));
  t.unref();
  return t;
}
