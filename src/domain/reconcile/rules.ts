/** Pure rules of reconciliation: what the chain's answer says about an execution that has no final status. */
import type { SignatureStatus } from "../../chain/rpc-client.js";

/** A final outcome for an open execution, or null while the chain has not settled it. */
export type Settlement =
  | { status: "confirmed" | "finalized"; confirmationStatus: "confirmed" | "finalized" }
  | { status: "failed"; confirmationStatus: string | null; signature: string; err: unknown }
  | { status: "expired"; confirmationStatus: null }
  | null;

/** What is known of one execution when it is reconciled. */
export interface SettlementInput {
  signatures: readonly string[];
  /** Statuses of `signatures`, same order (null: the node has not seen it). */
  statuses: readonly (SignatureStatus | null)[];
  /** Block height read BEFORE the statuses, so "not seen" plus "expired" means it can never land. */
  blockHeight: number;
  lastValidBlockHeight: number | null;
  /** Age of the record; decides expiry for records written before their blockhash height was stored. */
  ageMs: number;
}

/**
 * Records without a stored blockhash height are expired after this long: a blockhash is valid for 150 blocks
 * (about 60–90 s on mainnet), so ten minutes leaves a wide margin.
 */
export const LEGACY_EXPIRY_MS = 10 * 60_000;

/**
 * Any signature that landed with an error → failed; every signature at confirmed or finalized → the lower of
 * the two; none seen and the blockhash expired → expired; anything else (processed, partly seen) → null.
 */
export function settlementOf(input: SettlementInput): Settlement {
  const { statuses } = input;
  for (const [i, s] of statuses.entries()) {
    if (s !== null && s.err !== null && s.err !== undefined) {
      return {
        status: "failed",
        confirmationStatus: s.confirmationStatus,
        signature: input.signatures[i]!,
        err: s.err,
      };
    }
  }
  const seen = statuses.filter((s): s is SignatureStatus => s !== null);
  if (seen.length === statuses.length && seen.length > 0) {
    const levels = seen.map((s) => s.confirmationStatus);
    if (levels.every((l) => l === "finalized"))
      return { status: "finalized", confirmationStatus: "finalized" };
    if (levels.every((l) => l === "confirmed" || l === "finalized"))
      return { status: "confirmed", confirmationStatus: "confirmed" };
    return null;
  }
  if (seen.length > 0) return null;
  const expired =
    input.lastValidBlockHeight !== null
      ? input.blockHeight > input.lastValidBlockHeight
      : input.ageMs > LEGACY_EXPIRY_MS;
  return expired ? { status: "expired", confirmationStatus: null } : null;
}

/**
 * Backoff of an unsettled record: the next look comes after as long again as the record's age (so looks at
 * about 2 s, 4 s, 8 s, ... after the send), at least `firstLookMs` and at most `maxSpacingMs` apart.
 */
export function nextLookDelayMs(ageMs: number, firstLookMs: number, maxSpacingMs: number): number {
  return Math.max(1, Math.min(Math.max(ageMs, firstLookMs), maxSpacingMs));
}
