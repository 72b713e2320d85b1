/**
 * Positions for the console: the service's ledger (GET /v1/positions, GET /v1/pnl) when it has one, else
 * holdings from the wallets' balances (valued at a sell quote; cost and PnL unknown).
 */
import type { Api } from "./api";
import { holdingsFromBalances, isMissingRoute, type PositionRow } from "./data";
import { solNumber } from "./format";

/** A ledger position as GET /v1/positions answers it (docs/positions.md; the fields the console reads). */
export interface LedgerPosition {
  wallet: string;
  mint: string;
  tokens_held: string;
  unknown_basis_tokens: string;
  decimals: number;
  cost_basis_lamports: string;
  realized_pnl_lamports: string;
  unrealized_pnl_lamports: string | null;
  liquidation_value_lamports: string | null;
  opened_at: string | null;
  last_trade_at: string | null;
}

/** Maps one ledger position to a row. */
export function ledgerRow(p: LedgerPosition): PositionRow {
  return {
    wallet: p.wallet,
    mint: p.mint,
    tokens: p.tokens_held,
    decimals: p.decimals,
    value: p.liquidation_value_lamports,
    costBasis: p.cost_basis_lamports,
    realized: p.realized_pnl_lamports,
    unrealized: p.unrealized_pnl_lamports,
    openedAt: p.opened_at,
    lastTradeAt: p.last_trade_at,
    unknownTokens: p.unknown_basis_tokens,
  };
}

/** One position, valued now (a venue not in the warm state is read once, then watched). */
export async function loadPosition(api: Api, wallet: string, mint: string): Promise<PositionRow> {
  return ledgerRow(await api.get<LedgerPosition>(`/v1/positions/${wallet}/${mint}?valuation=read`));
}

const READS_AT_ONCE = 8;

/**
 * The list is valued from the warm state only (a page never waits on the RPC): a position whose venue is not in
 * it is read one by one (GET of the position reads it once, then the service watches it, so the next list has it).
 */
async function valueMissing(api: Api, rows: PositionRow[]): Promise<PositionRow[]> {
  const out = [...rows];
  const missing = out.flatMap((r, i) => (r.value === null && BigInt(r.tokens) > 0n ? [i] : []));
  for (let start = 0; start < missing.length; start += READS_AT_ONCE) {
    await Promise.all(
      missing.slice(start, start + READS_AT_ONCE).map(async (i) => {
        const r = out[i]!;
        out[i] = await loadPosition(api, r.wallet, r.mint).catch(() => r);
      }),
    );
  }
  return out;
}

/** Open positions (valued) and whether they come from the ledger. */
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
    return { rows: await valueMissing(api, rows), ledger: true };
  } catch (e) {
    if (!isMissingRoute(e)) throw e;
    return { rows: await holdingsFromBalances(api), ledger: false };
  }
}

/** PnL totals and a series over time (GET /v1/pnl), or null without the ledger. */
export interface PnlView {
  realized: string;
  unrealized: string | null;
  fees: string;
  series: [number, number][];
}

interface PnlFigures {
  realized_pnl_lamports: string;
  unrealized_pnl_lamports: string | null;
  fee_lamports: string;
}

/**
 * The PnL totals and the chart's series (cumulative realized by day, ending now with the unrealized PnL added);
 * null when the service has no ledger.
 */
export async function loadPnl(api: Api, positions: PositionRow[]): Promise<PnlView | null> {
  // The open positions as valued for the page (a venue not in the warm state read once): the unrealized PnL
  // when the service's own total could not value one of them.
  const openUnrealized = positions.every((p) => p.unrealized !== null)
    ? positions.reduce((a, p) => a + BigInt(p.unrealized ?? "0"), 0n).toString()
    : null;
  try {
    const res = await api.get<{ groups: (PnlFigures & { key: string })[]; total: PnlFigures }>(
      "/v1/pnl?group_by=day",
    );
    // Realized PnL is known at the end of each day (or now, for today); the last point adds the open positions'
    // unrealized PnL now, so the line ends at the total PnL.
    const now = Date.now() / 1000;
    let running = 0n;
    const series: [number, number][] = res.groups.map((g) => {
      running += BigInt(g.realized_pnl_lamports);
      return [Math.min(now - 1, Date.parse(`${g.key}T00:00:00Z`) / 1000 + 86_400), solNumber(running)];
    });
    const first = res.groups[0];
    if (first !== undefined) series.unshift([Date.parse(`${first.key}T00:00:00Z`) / 1000, 0]);
    const unrealized = res.total.unrealized_pnl_lamports ?? openUnrealized;
    if (unrealized !== null) series.push([now, solNumber(running + BigInt(unrealized))]);
    return {
      realized: res.total.realized_pnl_lamports,
      unrealized: res.total.unrealized_pnl_lamports ?? openUnrealized,
      fees: res.total.fee_lamports,
      series,
    };
  } catch (e) {
    if (isMissingRoute(e)) return null;
    throw e;
  }
}
