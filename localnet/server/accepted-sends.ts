/**
 * Sends answered on acceptance (the `answerOnAcceptance` switch): a real relay, and an RPC node's
 * sendTransaction, answer once the transaction is checked (with preflight: simulated) and forwarded, and the
 * leader executes it afterwards. Here the accepted transactions wait in arrival order and execute on the next
 * turn of the localnet's event loop, after their answers have been written. The localnet being one event loop,
 * calls that arrive during that execution wait for it (a real RPC node serves them while the leader executes).
 */
import type { Ledger } from "../ledger/index.js";
import { TransactionRejected } from "../ledger/index.js";

/** Accepted, not yet executed transactions, executed in arrival order. */
export class AcceptedSends {
  private queue: Uint8Array[] = [];
  private scheduled = false;

  constructor(
    private readonly ledger: Pick<Ledger, "processTransaction">,
    private readonly report: (e: unknown) => void = (e) =>
      console.error("localnet: an accepted send failed to execute", e),
    private readonly schedule: (run: () => void) => void = (run) => void setImmediate(run),
  ) {}

  /** Queues an accepted transaction; it executes after every send accepted before it. */
  push(wire: Uint8Array): void {
    this.queue.push(wire);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Sends accepted and not yet executed. */
  get size(): number {
    return this.queue.length;
  }

  /**
   * Executes every queued send now, in arrival order. Called on the scheduled turn, and before anything that
   * must come after them (a preflight send, a bundle, a delayed send falling due), so arrival order holds.
   * A transaction that fails on chain lands as failed and pays its fee (recorded, visible to
   * getSignatureStatuses); one rejected by the time it runs (expired, a duplicate of a queued one) is dropped,
   * as a leader drops it, and stays unknown.
   */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      for (const wire of batch) {
        try {
          this.ledger.processTransaction(wire);
        } catch (e) {
          // The answer is gone already: an internal error can only be reported, not returned.
          if (!(e instanceof TransactionRejected)) this.report(e);
        }
      }
    }
  }
}
