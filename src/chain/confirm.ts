import type { Clock } from "./clock.js";
import {
  decodeProgramError,
  describeTransactionError,
  logsExcerpt,
  type ProgramError,
} from "./program-errors.js";
import type { RelayClient } from "./relay-client.js";
import type { Commitment, RpcClient } from "./rpc-client.js";
import { upstreamDetail } from "./upstream-errors.js";

/** A transaction that landed with an error. */
export interface OnChainFailure {
  err: unknown;
  summary: string;
  programError: ProgramError | null;
  logs: string[];
}

/** What confirmation polling observed. */
export interface ConfirmationResult {
  /** True when the signature reached the target commitment without error. */
  confirmed: boolean;
  /** Last status the RPC reported for the signature; null when it was never seen. */
  confirmationStatus: Commitment | null;
  /** Set when the transaction landed and failed. */
  failure?: OnChainFailure;
  /** True when the blockhash expired before the signature was seen: it can no longer land. */
  expired?: boolean;
  /** Set when no status poll succeeded at all: the upstream detail of the last failure. */
  unreachable?: string;
}

/** Inputs of `confirmSignature`. */
export interface ConfirmSignatureInput {
  rpc: Pick<RpcClient, "getSignatureStatuses" | "getBlockHeight" | "getTransactionLogs">;
  /** Where the same signed bytes are rebroadcast while waiting. */
  relay: Pick<RelayClient, "sendTransaction">;
  signature: string;
  wire: Uint8Array;
  lastValidBlockHeight: number;
  timeoutMs: number;
  pollMs: number;
  rebroadcastMs: number;
  clock: Clock;
  /** Status that counts as confirmed. Default "confirmed" (finalized also counts). */
  commitment?: "confirmed" | "finalized";
  /** Block height is checked on every n-th unseen poll, to keep the poll at one round trip. Default 5. */
  expiryCheckEvery?: number;
}

const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/**
 * Polls the signature until it reaches the commitment, fails on chain, its blockhash expires, or time is up.
 * Rebroadcasts the same bytes every `rebroadcastMs` until the signature is seen (a duplicate is harmless).
 * A timeout is not a failure: it returns confirmed false.
 */
export async function confirmSignature(input: ConfirmSignatureInput): Promise<ConfirmationResult> {
  const { clock } = input;
  const target = RANK[input.commitment ?? "confirmed"];
  const checkEvery = input.expiryCheckEvery ?? 5;
  const start = clock.now();
  let lastBroadcast = start;
  let seen: Commitment | null = null;
  let anyAnswer = false;
  let lastError: unknown;
  let unseenPolls = 0;

  for (;;) {
    try {
      const { value } = await input.rpc.getSignatureStatuses([input.signature]);
      anyAnswer = true;
      const status = value[0] ?? null;
      if (status) {
        seen = status.confirmationStatus ?? seen ?? "processed";
        if (status.err !== null && status.err !== undefined) {
          return {
            confirmed: false,
            confirmationStatus: seen,
            failure: await describeFailure(input, status.err),
          };
        }
        if (RANK[seen] >= target) return { confirmed: true, confirmationStatus: seen };
      } else if (++unseenPolls % checkEvery === 0) {
        const height = await input.rpc.getBlockHeight();
        // The status just read came after (or with) this height: the transaction can no longer land.
        if (height > input.lastValidBlockHeight)
          return { confirmed: false, confirmationStatus: null, expired: true };
      }
    } catch (e) {
      lastError = e;
    }

    const elapsed = clock.now() - start;
    if (elapsed >= input.timeoutMs) break;
    if (seen === null && clock.now() - lastBroadcast >= input.rebroadcastMs) {
      lastBroadcast = clock.now();
      // A failed rebroadcast changes nothing: the first send was accepted and polling continues.
      await input.relay.sendTransaction(input.wire).catch(() => undefined);
    }
    await clock.sleep(Math.max(0, Math.min(input.pollMs, input.timeoutMs - elapsed)));
  }
  if (!anyAnswer && lastError !== undefined) {
    return { confirmed: false, confirmationStatus: null, unreachable: upstreamDetail(lastError) };
  }
  return { confirmed: false, confirmationStatus: seen };
}

async function describeFailure(input: ConfirmSignatureInput, err: unknown): Promise<OnChainFailure> {
  // Logs cost more reads, only on the failure path; their absence does not hide the error itself. They name the
  // program that raised the error (a CPI's callee), so they are read before decoding.
  const logs = await failureLogs(input);
  const programError = decodeProgramError(err, input.wire, logs);
  return { err, summary: describeTransactionError(err, programError), programError, logs: logsExcerpt(logs) };
}

/**
 * getTransaction only answers at `confirmed`, while the failure may have been seen at `processed`:
 * ask a few times, one poll interval apart, before giving up on the logs.
 */
async function failureLogs(input: ConfirmSignatureInput): Promise<string[] | null> {
  for (let attempt = 0; attempt < LOG_ATTEMPTS; attempt++) {
    const logs = await input.rpc.getTransactionLogs(input.signature).catch(() => null);
    if (logs !== null) return logs;
    if (attempt + 1 < LOG_ATTEMPTS) await input.clock.sleep(input.pollMs);
  }
  return null;
}

const LOG_ATTEMPTS = 5;
