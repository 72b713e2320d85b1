/**
 * Re-reads what landed while a logs subscription was down (issue 21): the program's signatures newer than the
 * last one the subscription delivered (`getSignaturesForAddress(program, {until})`, newest first, paged with
 * `before`), then each unseen, successful transaction's logs (`rpc.getTransactionLogs`), handed to the feed
 * oldest first with the slot and error its signature was listed with. The feed drops signatures it already published, so a transaction seen both live and re-read is
 * published once.
 */
import type { RpcClient } from "../../chain/rpc-client.js";
import type { LogsNotification } from "./market-feed.js";

/** Where the subscription stood when it was lost: the newest transaction it delivered, else the slot it went live at. */
export interface GapStart {
  signature: string | null;
  slot: number | null;
}

/** What one re-read found. */
export interface GapResult {
  /** Signatures listed newer than the gap's start (failed ones included). */
  listed: number;
  /** Transactions whose logs were re-read and handed to the feed (not seen live). */
  reread: number;
  /** False when the gap could not be bounded (nothing delivered before and no slot), or was longer than maxPages. */
  complete: boolean;
}

/** What the re-read needs from the feed. */
export interface GapSink {
  /** Whether the feed already published (or skipped) this signature. */
  has(signature: string): boolean;
  ingest(n: LogsNotification): Promise<void>;
}

/** Options of readGap. */
export interface GapOptions {
  /** Signatures per getSignaturesForAddress call (≤ 1000). Default 1000. */
  pageSize?: number;
  /** Pages read at most; a longer gap is reported incomplete. Default 10. */
  maxPages?: number;
}

type GapRpc = Pick<RpcClient, "getSignaturesForAddress" | "getTransactionLogs">;

/** Re-reads one program's gap into `sink`. */
export async function readGap(
  rpc: GapRpc,
  programId: string,
  start: GapStart,
  sink: GapSink,
  options: GapOptions = {},
): Promise<GapResult> {
  if (start.signature === null && start.slot === null) return { listed: 0, reread: 0, complete: false };
  const pageSize = options.pageSize ?? 1000;
  const maxPages = options.maxPages ?? 10;
  const newestFirst: { signature: string; slot: number; err: unknown }[] = [];
  let complete = false;
  let before: string | undefined;
  for (let page = 0; page < maxPages && !complete; page++) {
    const list = await rpc.getSignaturesForAddress(programId, {
      limit: pageSize,
      ...(start.signature !== null ? { until: start.signature } : {}),
      ...(before !== undefined ? { before } : {}),
    });
    for (const e of list) {
      // Without a signature the gap is bounded by slot: the slot it went live at is re-read whole.
      if (start.signature === null && e.slot < start.slot!) {
        complete = true;
        break;
      }
      newestFirst.push(e);
    }
    if (list.length < pageSize) complete = true;
    before = list.at(-1)?.signature;
  }
  let reread = 0;
  for (const e of newestFirst.reverse()) {
    // A failed transaction publishes nothing (its events were rolled back): no need to read it.
    if (e.err !== null || sink.has(e.signature)) continue;
    const logs = await rpc.getTransactionLogs(e.signature);
    if (logs === null) continue;
    reread++;
    await sink.ingest({ signature: e.signature, slot: e.slot, err: null, logs });
  }
  return { listed: newestFirst.length, reread, complete };
}
