/**
 * Issue 33: the ledger fills a stored execution carries — a trade's one fill (`response.fill`), a create's dev
 * buy (`response.fill`, a buy of the created mint) and a bundle's legs (`response.fills`, one per leg that
 * moved tokens, each with its own wallet). Read the same way live and on rebuild, so both give one ledger.
 */
import type { LedgerFill } from "../../core/average-cost.js";

/** A fill as a stored execution carries it, with whose position it moves. */
export interface ExecutionFill {
  apiKeyId: number;
  executionId: string;
  /** The bundle leg (0 for a trade or a create): one execution may move several positions. */
  leg: number;
  wallet: string;
  mint: string;
  /** The execution's created_at: the trade's time in the ledger (the same live and on rebuild). */
  at: string;
  fill: LedgerFill;
  decimals: number | null;
  /** The execution's kind (trade, create, bundle): the position.updated event names it. */
  kind: string;
}

/** The columns of an execution row the ledger reads. */
export interface ExecutionRowForFill {
  id: string;
  api_key_id: number | string;
  kind: string;
  status: string;
  wallet: string;
  request: string | null;
  response: string | null;
  created_at: string;
}

/** The execution kinds whose confirmed records carry fills. */
export const FILL_KINDS = ["trade", "create", "bundle"] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const parse = (text: string | null): unknown => {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
};
const amount = (v: unknown): bigint | null => (typeof v === "string" && /^-?\d+$/.test(v) ? BigInt(v) : null);

/** The ledger fill of one chain fill object (chain/fills.ts `Fill`); null when it lacks a figure or moved no token. */
function ledgerFillOf(side: unknown, f: unknown): { fill: LedgerFill; decimals: number | null } | null {
  if ((side !== "buy" && side !== "sell") || !isObject(f)) return null;
  const [solChange, fee, tip, rent, tokenChange] = [
    f.sol_change_lamports,
    f.fee_lamports,
    f.tip_lamports,
    f.rent_lamports,
    f.token_change,
  ].map(amount);
  if (solChange == null || fee == null || tip == null || rent == null || tokenChange == null) return null;
  // A fill that moved no token (nothing bought or sold) leaves the position as it is.
  if (tokenChange === 0n) return null;
  return {
    fill: { side, solChange, fee, tip, rent, tokenChange, balanceAfter: amount(f.token_balance_after) },
    decimals: typeof f.token_decimals === "number" ? f.token_decimals : null,
  };
}

/**
 * The ledger fills of a stored execution, in leg order: a confirmed (or finalized) trade, create with a dev buy
 * or bundle whose response holds the chain's fills (issue 22); none for anything else.
 */
export function executionFillsOf(row: ExecutionRowForFill): ExecutionFill[] {
  if (row.status !== "confirmed" && row.status !== "finalized") return [];
  const request = parse(row.request);
  const response = parse(row.response);
  if (!isObject(request) || !isObject(response)) return [];
  // The response's mint is the resolved one (a trade may name only a pool), as fill.ts reads it.
  const mint = typeof response.mint === "string" ? response.mint : request.mint;
  if (typeof mint !== "string") return [];
  const base = {
    apiKeyId: Number(row.api_key_id),
    executionId: row.id,
    mint,
    at: row.created_at,
    kind: row.kind,
  };
  const one = (leg: number, wallet: string, side: unknown, f: unknown): ExecutionFill[] => {
    const l = ledgerFillOf(side, f);
    return l === null ? [] : [{ ...base, leg, wallet, ...l }];
  };
  // A create's fill is its dev buy (the record has one only when there was one).
  if (row.kind === "trade" || row.kind === "create")
    return one(0, row.wallet, row.kind === "create" ? "buy" : request.action, response.fill);
  if (row.kind !== "bundle" || !Array.isArray(response.fills)) return [];
  return response.fills
    .filter(isObject)
    .flatMap((l) =>
      typeof l.index === "number" && typeof l.wallet === "string"
        ? one(l.index, l.wallet, l.side, l.fill)
        : [],
    )
    .sort((a, b) => a.leg - b.leg);
}
