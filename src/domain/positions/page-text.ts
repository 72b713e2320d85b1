/**
 * Issue 33: GET /v1/positions answered as JSON text built from rows serialized once. A page of positions is
 * asked for again and again (the console, a bot polling) while its rows rarely change, and turning 500 rows into
 * the answer (the view, its bigint texts, the schema serializer escaping every string) was most of the server's
 * work for a page of 500. Each row's ledger part (everything but the valuation) is kept as text per row version;
 * the valuation part, which changes with the venue, is written per request. The text is what the `Position`
 * component's serializer wrote: the same properties and values (a test parses one against the other).
 */
import { unrealizedPnl, type PositionFigures } from "../../core/average-cost.js";
import type { PositionRecord } from "../../store/index.js";
import { EMPTY_VALUATION, positionView, type Valuation } from "./view.js";

/** Row texts kept; the cache is cleared whole when it reaches this (a refill costs one view per row). */
const MAX_ROWS = 50_000;

/** A row's ledger part as JSON bytes, with the columns it was written from. */
interface RowText {
  figures: PositionFigures;
  status: string;
  decimals: number | null;
  openedAt: string;
  lastTradeAt: string;
  closedAt: string | null;
  lastExecutionId: string | null;
  ledger: Buffer;
}

/** The ledger part of each position row as JSON bytes, by row version. */
export class PositionTextCache {
  /** By wallet, then mint. */
  private readonly rows = new Map<string, Map<string, RowText>>();
  private size = 0;

  /**
   * The row's ledger properties as JSON members (no braces), UTF-8. A kept text is used while every column the
   * view shows is unchanged: the figures by object (the store hands out one frozen figures object per stored
   * figures text, `FiguresCache`; a re-read row gets a new object only after that cache was cleared, a miss),
   * the rest by value.
   */
  ledgerBytes(p: PositionRecord): Buffer {
    let byMint = this.rows.get(p.wallet);
    const kept = byMint?.get(p.mint);
    if (
      kept !== undefined &&
      kept.figures === p.figures &&
      kept.status === p.status &&
      kept.decimals === p.decimals &&
      kept.openedAt === p.openedAt &&
      kept.lastTradeAt === p.lastTradeAt &&
      kept.closedAt === p.closedAt &&
      kept.lastExecutionId === p.lastExecutionId
    )
      return kept.ledger;
    const {
      tokens_on_chain: _onChain,
      liquidation_value_lamports: _value,
      unrealized_pnl_lamports: _pnl,
      valuation: _valuation,
      ...view
    } = positionView(p, EMPTY_VALUATION);
    const ledger = Buffer.from(JSON.stringify(view).slice(1, -1));
    if (kept === undefined) {
      if (this.size >= MAX_ROWS) {
        this.rows.clear();
        this.size = 0;
      }
      if (byMint === undefined || !this.rows.has(p.wallet)) {
        byMint = new Map();
        this.rows.set(p.wallet, byMint);
      }
      this.size++;
    }
    byMint!.set(p.mint, { ...p, ledger });
    return ledger;
  }
}

// Amounts are decimal digits (and a sign): quoted as they are, no escaping needed.
const amount = (v: bigint | null | undefined): string => (v == null ? "null" : `"${v}"`);

/** The valuation part of a row as JSON members: what `positionView` shows of `v`. */
function valuedText(p: PositionRecord, v: Valuation): string {
  const value = v.liquidationValue;
  const pnl = value === null ? null : unrealizedPnl(p.figures, value);
  const venue = v.venue === null ? "null" : JSON.stringify(v.venue);
  const detail = v.detail !== undefined ? `,"detail":${JSON.stringify(v.detail)}` : "";
  return (
    `"tokens_on_chain":${amount(v.tokensOnChain)},"liquidation_value_lamports":${amount(value)},` +
    `"unrealized_pnl_lamports":${amount(pnl)},` +
    `"valuation":{"source":"${v.source}","slot":${v.slot ?? "null"},"venue":${venue}${detail}}`
  );
}

/** One position as JSON text: the same object `positionView(p, v)` gives. */
export function positionText(cache: PositionTextCache, p: PositionRecord, v: Valuation): string {
  return `{${cache.ledgerBytes(p).toString()},${valuedText(p, v)}}`;
}

/**
 * The answer of GET /v1/positions as JSON bytes: written into one buffer from the kept row bytes and each row's
 * valuation text (no page-sized string is built, and no encoding of it on the way out).
 */
export function positionsPageBytes(
  cache: PositionTextCache,
  rows: readonly { record: PositionRecord; valuation: Valuation }[],
  limit: number,
  nextCursor: string | null,
): Buffer {
  const head = '{"positions":[';
  const tail = `],"limit":${limit},"next_cursor":${nextCursor === null ? "null" : JSON.stringify(nextCursor)}}`;
  const ledgers = rows.map((r) => cache.ledgerBytes(r.record));
  const valued = rows.map((r) => valuedText(r.record, r.valuation));
  let size = head.length + Buffer.byteLength(tail);
  for (let i = 0; i < rows.length; i++)
    // "{" valued "," ledger "}" and the "," between rows.
    size += ledgers[i]!.length + Buffer.byteLength(valued[i]!) + 3 + (i > 0 ? 1 : 0);
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, "latin1");
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) at = out.writeUInt8(0x2c, at); // ,
    at = out.writeUInt8(0x7b, at); // {
    at += out.write(valued[i]!, at);
    at = out.writeUInt8(0x2c, at);
    at += ledgers[i]!.copy(out, at);
    at = out.writeUInt8(0x7d, at); // }
  }
  at += out.write(tail, at);
  return at === size ? out : out.subarray(0, at);
}
