/**
 * Positions for the console: the service's ledger (GET /v1/positions, GET /v1/pnl) when it has one, else
 * holdings from the wallets' balances (valued at a sell quote; cost and PnL unknown).
 */
import type { Api } from "./api";
import { holdingsFromBalances, isMissingRoute, type PositionRow } from "./data";

/** A ledger position as GET /v1/positions answers it (the fields the console reads). */
interface LedgerPosition {
  wallet: string;
  mint: string;
  tokens: string;
  decimals?: number;
  cost_basis_lamports?: string | null;
  realized_pnl_lamports?: string | null;
  unrealized_pnl_lamports?: string | null;
  liquidation_value_lamports?: string | null;
  cost_basis_known?: boolean;
  opened_at?: string | null;
  last_trade_at?: string | null;
}

/** Maps one ledger position to a row. */
export function ledgerRow(p: LedgerPosition): PositionRow {
  return {
    wallet: p.wallet,
    mint: p.mint,
    tokens: p.tokens,
    decimals: p.decimals ?? 6,
    value: p.liquidation_value_lamports ?? null,
    costBasis: p.cost_basis_lamports ?? null,
    realized: p.realized_pnl_lamports ?? null,
    unrealized: p.unrealized_pnl_lamports ?? null,
    openedAt: p.opened_at ?? null,
    lastTradeAt: p.last_trade_at ?? null,
    unknownCost: p.cost_basis_known === false,
  };
}

/** Open positions and whether they come from the ledger. */
export async function loadPositions(api: Api): Promise<{ rows: PositionRow[]; ledger: boolean }> {
  try {
    const rows: PositionRow[] = [];
    let after: string | null = null;
    do {
      const q: string = after === null ? "" : `&after=${encodeURIComponent(after)}`;
      const page = await api.get<{ positions: LedgerPosition[]; next_cursor: string | null }>(
        `/v1/positions?status=open&limit=500${q}`,
      );
      rows.push(...page.positions.map(ledgerRow));
      after = page.next_cursor ?? null;
    } while (after !== null);
    return { rows, ledger: true };
  } catch (e) {
    if (!isMissingRoute(e)) throw e;
    return { rows: await holdingsFromBalances(api), ledger: false };
  }
}

/** PnL totals and a series over time (GET /v1/pnl), or null without the ledger. */
export interface PnlView {
  realized: string;
  unrealized: string;
  fees: string;
  series: [number, number][];
}

interface PnlGroup {
  key: string;
  realized_pnl_lamports: string;
  unrealized_pnl_lamports?: string | null;
  fees_lamports?: string;
}

/** The day-grouped PnL (cumulative realized per day for the chart); null when the service has no ledger. */
export async function loadPnl(api: Api): Promise<PnlView | null> {
  try {
    const res = await api.get<{ groups: PnlGroup[]; total: PnlGroup }>("/v1/pnl?group_by=day");
    let running = 0;
    const series: [number, number][] = res.groups.map((g) => {
      running += Number(BigInt(g.realized_pnl_lamports)) / 1e9;
      return [Date.parse(`${g.key}T00:00:00Z`) / 1000, running];
    });
    return {
      realized: res.total.realized_pnl_lamports,
      unrealized: res.total.unrealized_pnl_lamports ?? "0",
      fees: res.total.fees_lamports ?? "0",
      series,
    };
  } catch (e) {
    if (isMissingRoute(e)) return null;
    throw e;
  }
}
