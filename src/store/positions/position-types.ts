/** Issue 33: records and store methods of the positions ledger. */
import type { LedgerEntry, PositionFigures } from "../../core/average-cost.js";

/** One position: a wallet × mint of an account and its ledger figures. */
export interface PositionRecord {
  apiKeyId: number;
  wallet: string;
  mint: string;
  /** open while tokens are held (known or unknown basis), closed at zero. */
  status: "open" | "closed";
  figures: PositionFigures;
  /** The mint's decimals as the last fill stated them; null when no fill did. */
  decimals: number | null;
  /** ISO without zone: the first trade (again after the position was closed and reopened). */
  openedAt: string;
  lastTradeAt: string;
  closedAt: string | null;
  lastExecutionId: string | null;
  updatedAt: string;
}

/** One ledger line: what one execution's fill did to a position. */
export interface PositionEntryRecord {
  apiKeyId: number;
  executionId: string;
  wallet: string;
  mint: string;
  entry: LedgerEntry;
  /** ISO without zone: when the trade was recorded (the execution's created_at). */
  at: string;
}

/** Inputs of `listPositions`: ordered by wallet then mint, after the cursor. */
export interface ListPositionsQuery {
  apiKeyId: number;
  wallet?: string;
  mint?: string;
  status?: "open" | "closed";
  /** A wallet-bound key sees only these wallets' positions. */
  onlyWallets?: readonly string[];
  /** Only positions after this one in (wallet, mint) order: cursor paging. */
  after?: { wallet: string; mint: string };
  limit: number;
}

/** Inputs of `listPositionEntries`: ledger lines of an account in [from, to), oldest first. */
export interface ListPositionEntriesQuery {
  apiKeyId: number;
  /** ISO without zone, inclusive. */
  from?: string;
  /** ISO without zone, exclusive. */
  to?: string;
  onlyWallets?: readonly string[];
}

/** What a rebuild did. */
export interface RebuildReport {
  /** Executions that carried at least one fill. */
  executions: number;
  /** Fills applied: ledger lines (a bundle execution applies one per leg that moved tokens). */
  fills: number;
  positions: number;
}

/** The positions methods of the store. */
export interface PositionStore {
  listPositions(query: ListPositionsQuery): Promise<PositionRecord[]>;
  findPosition(apiKeyId: number, wallet: string, mint: string): Promise<PositionRecord | undefined>;
  listPositionEntries(query: ListPositionEntriesQuery): Promise<PositionEntryRecord[]>;
  /**
   * Drops the ledger (of one account, or of all) and applies every confirmed fill of the execution history
   * again (trades, creates' dev buys, bundle legs), oldest first, in one transaction holding the ledger's write
   * lock (safe while the service runs: rebuild.ts); no events are written.
   */
  rebuildPositions(apiKeyId?: number): Promise<RebuildReport>;
}
