/** Issue 33: a position as the API shows it (list, one position, the position.updated event). */
import { averageEntryPrice, figuresFromJson, unrealizedPnl } from "../../core/average-cost.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { PositionRecord } from "../../store/index.js";
import type { Venue } from "../../core/venues.js";

/** Where a liquidation value came from. */
export interface Valuation {
  /** cache: the warm venue state; read: one read of the venue now; none: not valued (see detail). */
  source: "cache" | "read" | "none";
  slot: number | null;
  venue: Venue | null;
  /** What selling every token held returns now, after the venue's fees; null when not valued. */
  liquidationValue: bigint | null;
  /** Why there is no value (not watched, curve complete, …); absent when valued. */
  detail?: string;
  /** The wallet's balance of the mint in the state valued (null when nothing was read). */
  tokensOnChain?: bigint | null;
}

/** The valuation of a position holding nothing: worth nothing, no read needed. */
export const EMPTY_VALUATION: Valuation = { source: "none", slot: null, venue: null, liquidationValue: 0n };

/** One position on the wire: every amount a decimal string. */
export interface PositionView {
  wallet: string;
  mint: string;
  status: "open" | "closed";
  tokens_held: string;
  tokens_on_chain: string | null;
  unknown_basis_tokens: string;
  cost_basis_lamports: string;
  cost_basis_fee_lamports: string;
  average_entry_price_lamports: string | null;
  decimals: number | null;
  realized_pnl_lamports: string;
  unknown_basis_proceeds_lamports: string;
  liquidation_value_lamports: string | null;
  unrealized_pnl_lamports: string | null;
  valuation: {
    source: "cache" | "read" | "none";
    slot: number | null;
    venue: Venue | null;
    detail?: string;
  };
  bought_tokens: string;
  sold_tokens: string;
  spent_lamports: string;
  received_lamports: string;
  fee_lamports: string;
  tip_lamports: string;
  rent_lamports: string;
  tokens_in_outside: string;
  tokens_out_outside: string;
  trade_count: number;
  opened_at: string;
  last_trade_at: string;
  closed_at: string | null;
  last_execution_id: string | null;
}

/** The decimals assumed for the average price when no fill stated them (launch mints have 6). */
const DEFAULT_DECIMALS = 6;

/** The public view of a position and its valuation. */
export function positionView(p: PositionRecord, v: Valuation): PositionView {
  const f = p.figures;
  const value = v.liquidationValue;
  return {
    wallet: p.wallet,
    mint: p.mint,
    status: p.status,
    tokens_held: f.tokensHeld.toString(),
    tokens_on_chain: v.tokensOnChain == null ? null : v.tokensOnChain.toString(),
    unknown_basis_tokens: f.unknownBasisTokens.toString(),
    cost_basis_lamports: f.costBasis.toString(),
    cost_basis_fee_lamports: f.costBasisFees.toString(),
    average_entry_price_lamports: averageEntryPrice(f, p.decimals ?? DEFAULT_DECIMALS),
    decimals: p.decimals,
    realized_pnl_lamports: f.realizedPnl.toString(),
    unknown_basis_proceeds_lamports: f.unknownBasisProceeds.toString(),
    liquidation_value_lamports: value === null ? null : value.toString(),
    unrealized_pnl_lamports: value === null ? null : unrealizedPnl(f, value).toString(),
    valuation: {
      source: v.source,
      slot: v.slot,
      venue: v.venue,
      ...(v.detail !== undefined ? { detail: v.detail } : {}),
    },
    bought_tokens: f.boughtTokens.toString(),
    sold_tokens: f.soldTokens.toString(),
    spent_lamports: f.spent.toString(),
    received_lamports: f.received.toString(),
    fee_lamports: f.feeLamports.toString(),
    tip_lamports: f.tipLamports.toString(),
    rent_lamports: f.rentLamports.toString(),
    tokens_in_outside: f.tokensInOutside.toString(),
    tokens_out_outside: f.tokensOutOutside.toString(),
    trade_count: f.tradeCount,
    opened_at: utcTimestamp(p.openedAt),
    last_trade_at: utcTimestamp(p.lastTradeAt),
    closed_at: p.closedAt === null ? null : utcTimestamp(p.closedAt),
    last_execution_id: p.lastExecutionId,
  };
}

/** Valuation of an event's position: events are written with the fill, before any valuation. */
const NOT_VALUED: Valuation = {
  source: "none",
  slot: null,
  venue: null,
  liquidationValue: null,
  detail: "events carry the ledger only; GET /v1/positions/{wallet}/{mint} values it",
};

/** The `position` of a position.updated event's stored payload (apply-fill.ts positionEventData). */
export function positionOfEvent(data: unknown): { position?: PositionView } {
  if (typeof data !== "object" || data === null || !("position" in data)) return {};
  const p = (data as { position: Record<string, unknown> }).position;
  const record = { ...p, figures: figuresFromJson(JSON.stringify(p.figures)) } as unknown as PositionRecord;
  return { position: positionView(record, record.figures.tokensHeld === 0n ? EMPTY_VALUATION : NOT_VALUED) };
}
