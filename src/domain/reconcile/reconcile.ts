/**
 * Reconciliation: brings executions that have no final status (process killed between send and outcome,
 * confirm off, a confirmation wait that ended first, a database hiccup) to one, from the chain's own record.
 * Each pass leases a batch of open records (so several processes never work on the same one), reads the
 * block height and then the signatures' statuses (256 per call), and settles what the chain has decided.
 */
import {
  decodeProgramErrorFromLogs,
  describeTransactionError,
  logsExcerpt,
} from "../../chain/program-errors.js";
import { onChainFailureError } from "../../chain/submit.js";
import type { Chain } from "../../chain/chain.js";
import { isObject } from "../../chain/json-rpc.js";
import type { RpcClient, SignatureStatus } from "../../chain/rpc-client.js";
import type { ExecutionPatch, ExecutionRecord, ExecutionStatus, Store } from "../../store/index.js";
import {
  fillRequestOfRecord,
  legFillRequestsOfRecord,
  readFill,
  readLegFills,
  type LegFill,
} from "../execution/fill.js";
import { isoNoZone } from "../../store/index.js";
import { nextLookDelayMs, settlementOf, type Settlement } from "./rules.js";

/** The narrow collaborators of a pass. */
export interface ReconcileDeps {
  store: Pick<Store, "claimOpenExecutions" | "settleExecution" | "deferExecution">;
  rpc: Pick<RpcClient, "getSignatureStatuses" | "getBlockHeight" | "getTransactionLogs">;
  /** This process's identity in the lease column. */
  owner: string;
  clock: () => Date;
  /** Pending records updated more recently than this still belong to the request that is waiting on them. */
  graceMs: number;
  /**
   * Sent records (submitted / timeout: their request has returned) get their first look this long after
   * their last update, then looks spaced by `nextLookDelayMs` (issue 22). Default: `graceMs`.
   */
  firstLookMs?: number;
  /** The longest spacing between two looks at the same unsettled record. Default: `leaseMs`. */
  maxLookSpacingMs?: number;
  /** How long a claimed record stays this process's before another may take it. */
  leaseMs: number;
  /**
   * Where a confirmed trade's fill is read (getTransaction balances, the request path's `readFill`, issue 22);
   * without it reconciled records get no fill. A bundle's legs are read per wallet (issue 33), with the bundle
   * tip accounts.
   */
  fills?: Partial<Pick<Chain, "rpc" | "relayTip" | "bundleTipAccounts">>;
}

/** What one pass did. */
export interface ReconcileReport {
  examined: number;
  settled: Partial<Record<ExecutionStatus, number>>;
  /** Signature-status calls made. */
  statusCalls: number;
}

// getSignatureStatuses answers at most 256 signatures per call.
const SIGNATURES_PER_CALL = 256;
const RECORDS_PER_BATCH = 256;
/** Bounds one pass; what is left waits for the next one. */
const MAX_BATCHES_PER_PASS = 40;

/** One reconciliation pass over every open record old enough to be orphaned. */
export async function reconcileOnce(deps: ReconcileDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { examined: 0, settled: {}, statusCalls: 0 };
  for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
    const nowMs = deps.clock().getTime();
    const records = await deps.store.claimOpenExecutions({
      owner: deps.owner,
      nowMs,
      leaseUntilMs: nowMs + deps.leaseMs,
      updatedNotAfter: isoNoZone(new Date(nowMs - deps.graceMs)),
      sentUpdatedNotAfter: isoNoZone(new Date(nowMs - (deps.firstLookMs ?? deps.graceMs))),
      limit: RECORDS_PER_BATCH,
    });
    if (records.length === 0) break;
    report.examined += records.length;
    const blockHeight = await deps.rpc.getBlockHeight();
    const statuses = await statusesOf(
      deps,
      records.flatMap((r) => r.signatures),
      report,
    );
    for (const record of records) {
      const settlement = settlementOf({
        signatures: record.signatures,
        statuses: record.signatures.map((s) => statuses.get(s) ?? null),
        blockHeight,
        lastValidBlockHeight: record.lastValidBlockHeight,
        ageMs: nowMs - Date.parse(`${record.createdAt}Z`),
      });
      if (settlement === null) {
        // Without a first look configured, the claim's lease keeps the record out of reach, as before.
        if (deps.firstLookMs !== undefined) {
          const age = nowMs - Date.parse(`${record.createdAt}Z`);
          const delay = nextLookDelayMs(age, deps.firstLookMs, deps.maxLookSpacingMs ?? deps.leaseMs);
          await deps.store.deferExecution(record.id, deps.owner, nowMs + delay);
        }
        continue;
      }
      if (await deps.store.settleExecution(record.id, deps.owner, await patchOf(deps, settlement, record))) {
        report.settled[settlement.status] = (report.settled[settlement.status] ?? 0) + 1;
      }
    }
    if (records.length < RECORDS_PER_BATCH) break;
  }
  return report;
}

async function statusesOf(
  deps: Pick<ReconcileDeps, "rpc">,
  signatures: string[],
  report: ReconcileReport,
): Promise<Map<string, SignatureStatus | null>> {
  const out = new Map<string, SignatureStatus | null>();
  for (let i = 0; i < signatures.length; i += SIGNATURES_PER_CALL) {
    const chunk = signatures.slice(i, i + SIGNATURES_PER_CALL);
    const { value } = await deps.rpc.getSignatureStatuses(chunk, { searchTransactionHistory: true });
    report.statusCalls += 1;
    chunk.forEach((s, j) => out.set(s, value[j] ?? null));
  }
  return out;
}

/** The stored form of a settlement; a failure gets its decoded program error and log excerpt. */
async function patchOf(
  deps: Pick<ReconcileDeps, "rpc" | "fills">,
  s: NonNullable<Settlement>,
  record: ExecutionRecord,
): Promise<ExecutionPatch> {
  // An expired record never landed: no transaction to read a fill from (each read was retried with pauses,
  // about 0.6 s per record, one record after another in a pass).
  if (s.status === "expired") return { status: s.status, confirmationStatus: s.confirmationStatus };
  if (s.status !== "failed") {
    const patch: ExecutionPatch = { status: s.status, confirmationStatus: s.confirmationStatus };
    const base = isObject(record.response) ? record.response : {};
    // The record's response gains the fill as the request path writes it (`response.fill`, a bundle's
    // `response.fills`); the store then applies it to the positions ledger in the settlement's transaction.
    const fill = await reconciledFill(deps, record);
    if (fill !== null) patch.response = { ...base, fill };
    const fills = await reconciledLegFills(deps, record);
    if (fills.length > 0) patch.response = { ...base, fills };
    return patch;
  }
  // Logs cost one more read, only for failures; without them the code is still reported.
  const logs = await deps.rpc.getTransactionLogs(s.signature).catch(() => null);
  const programError = decodeProgramErrorFromLogs(s.err, logs);
  const { detail, extra } = onChainFailureError(
    s.signature,
    { summary: describeTransactionError(s.err, programError), programError, logs: logsExcerpt(logs) },
    s.confirmationStatus,
  );
  return {
    status: "failed",
    confirmationStatus: s.confirmationStatus,
    error: { status: 502, detail, ...extra },
  };
}

/** The fill of a landed trade from its transaction's balance changes; null for other kinds or when unreadable. */
async function reconciledFill(
  deps: Pick<ReconcileDeps, "fills">,
  record: ExecutionRecord,
): Promise<Record<string, string | number> | null> {
  const request = fillRequestOfRecord(record);
  const signature = record.signatures[0];
  if (deps.fills === undefined || request === null || signature === undefined) return null;
  const fill = await readFill(deps.fills, signature, request);
  return fill === null ? null : { ...fill };
}

/** Issue 33: a landed bundle's fills, one per leg that moved tokens, each read for its own wallet. */
async function reconciledLegFills(
  deps: Pick<ReconcileDeps, "fills">,
  record: ExecutionRecord,
): Promise<LegFill[]> {
  const fills = deps.fills;
  if (fills === undefined || record.kind !== "bundle" || fills.bundleTipAccounts === undefined) return [];
  // Without the tip accounts a leg's tip would read as its trade: no fills rather than wrong ones.
  const tips = await fills.bundleTipAccounts().catch(() => null);
  if (tips === null) return [];
  const requests = legFillRequestsOfRecord(
    record,
    tips.map((a) => a.toBase58()),
  );
  return requests === null ? [] : readLegFills(fills, record.signatures, requests);
}
