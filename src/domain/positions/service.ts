/** Issue 33: GET /v1/positions, GET /v1/positions/{wallet}/{mint} and GET /v1/pnl over the ledger. */
import { parseAddress } from "../../core/addresses.js";
import { ApiError, POSITIONS, TRADE_RULES } from "../../core/errors.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { PositionRecord, Store } from "../../store/index.js";
import { pnlOf, type PnlFigures, type PnlGroupView } from "./pnl.js";
import { positionCursor, type PnlQuery, type PositionsQuery, type ValuationMode } from "./query.js";
import { positionsPageBytes, type PositionTextCache } from "./page-text.js";
import { valuePosition, type ValuationDeps } from "./valuation.js";
import { positionView, type PositionView } from "./view.js";

/** Collaborators of the positions endpoints. */
export interface PositionsDeps extends ValuationDeps {
  store: Pick<Store, "listPositions" | "findPosition" | "listPositionEntries">;
}

/** Who asks: the account, and the wallets a wallet-bound key is limited to (undefined: every wallet). */
export interface Viewer {
  apiKeyId: number;
  onlyWallets?: readonly string[] | undefined;
}

/** The answer of GET /v1/pnl. */
export interface PnlAnswer {
  from: string | null;
  to: string | null;
  group_by: string | null;
  total: PnlFigures;
  groups?: PnlGroupView[];
}

async function viewOf(deps: PositionsDeps, p: PositionRecord, mode: ValuationMode): Promise<PositionView> {
  return positionView(p, await valuePosition(deps, p, mode, p.apiKeyId));
}

/**
 * One page of the viewer's positions, ordered by wallet then mint, as the answer's JSON bytes (rows serialized
 * once per row version: page-text.ts).
 */
export async function listPositionsBytes(
  deps: PositionsDeps,
  who: Viewer,
  q: PositionsQuery,
  texts: PositionTextCache,
): Promise<Buffer> {
  const rows = await deps.store.listPositions({
    apiKeyId: who.apiKeyId,
    limit: q.limit + 1,
    ...(q.wallet !== undefined ? { wallet: q.wallet } : {}),
    ...(q.mint !== undefined ? { mint: q.mint } : {}),
    ...(q.status !== undefined ? { status: q.status } : {}),
    ...(q.after !== undefined ? { after: q.after } : {}),
    ...(who.onlyWallets !== undefined ? { onlyWallets: who.onlyWallets } : {}),
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const valued = await Promise.all(
    page.map(async (record) => ({
      record,
      valuation: await valuePosition(deps, record, q.valuation, record.apiKeyId),
    })),
  );
  const next = rows.length > q.limit && last !== undefined ? positionCursor(last) : null;
  return positionsPageBytes(texts, valued, q.limit, next);
}

/** One position of the viewer; 404 when it has none for the pair (or the key may not see the wallet). */
export async function getPosition(
  deps: PositionsDeps,
  who: Viewer,
  params: { wallet: unknown; mint: unknown },
  mode: ValuationMode,
): Promise<PositionView> {
  const wallet = parseAddress(params.wallet, TRADE_RULES.walletInvalid);
  const mint = parseAddress(params.mint, TRADE_RULES.mintInvalid);
  const p =
    who.onlyWallets !== undefined && !who.onlyWallets.includes(wallet)
      ? undefined
      : await deps.store.findPosition(who.apiKeyId, wallet, mint);
  if (p === undefined) throw new ApiError(404, POSITIONS.positionNotFound);
  return viewOf(deps, p, mode);
}

/** Every open position of the viewer (paged through the store). */
async function openPositions(deps: PositionsDeps, who: Viewer): Promise<PositionRecord[]> {
  const out: PositionRecord[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const rows = await deps.store.listPositions({
      apiKeyId: who.apiKeyId,
      status: "open",
      limit: 500,
      ...(last !== undefined ? { after: { wallet: last.wallet, mint: last.mint } } : {}),
      ...(who.onlyWallets !== undefined ? { onlyWallets: who.onlyWallets } : {}),
    });
    out.push(...rows);
    if (rows.length < 500) return out;
  }
}

/** Realized and unrealized PnL, fees, tips, volume and trade counts of the viewer, grouped as asked. */
export async function pnl(deps: PositionsDeps, who: Viewer, q: PnlQuery): Promise<PnlAnswer> {
  const entries = await deps.store.listPositionEntries({
    apiKeyId: who.apiKeyId,
    ...(q.from !== undefined ? { from: q.from } : {}),
    ...(q.to !== undefined ? { to: q.to } : {}),
    ...(who.onlyWallets !== undefined ? { onlyWallets: who.onlyWallets } : {}),
  });
  // Unrealized PnL is now's (warm state only: a PnL report never waits on reads).
  const open = await openPositions(deps, who);
  const valued = await Promise.all(
    open.map(async (p) => ({ p, v: (await viewOf(deps, p, "warm")).unrealized_pnl_lamports })),
  );
  const sum = (keep: (p: PositionRecord) => boolean): bigint | null => {
    let s = 0n;
    for (const { p, v } of valued) {
      if (!keep(p)) continue;
      if (v === null) return null;
      s += BigInt(v);
    }
    return s;
  };
  const answer = pnlOf(
    entries,
    q.groupBy,
    (group, key) => sum((p) => group === "total" || (group === "mint" ? p.mint === key : p.wallet === key)),
    { mint: [...new Set(open.map((p) => p.mint))], wallet: [...new Set(open.map((p) => p.wallet))] },
  );
  return {
    from: q.from === undefined ? null : utcTimestamp(q.from),
    to: q.to === undefined ? null : utcTimestamp(q.to),
    group_by: q.groupBy ?? null,
    ...answer,
  };
}
