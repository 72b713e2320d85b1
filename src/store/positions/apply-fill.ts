/**
 * Issue 33: applies one recorded fill (a trade's, a create's dev buy, a bundle leg's) to its position, inside the caller's transaction (the one that
 * records the fill, or the rebuild's), so the ledger never disagrees with the execution history.
 */
import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import {
  applyFill,
  emptyFigures,
  figuresFromJson,
  figuresToJson,
  type LedgerEntry,
  type PositionFigures,
} from "../../core/average-cost.js";
import type { Database, PositionEntriesTable, PositionsTable } from "../schema.js";
import type { ExecutionFill } from "./execution-fills.js";
import type { PositionRecord } from "./position-types.js";

/**
 * Parsed figures by their stored text, bounded: a page of positions is read again and again (the console, a bot
 * polling) while its rows rarely change, and parsing the figures (JSON and fifteen bigints a row) was the
 * largest server-side cost of GET /v1/positions. The figures handed out are frozen: the ledger's arithmetic
 * copies before it changes anything (`applyFill`), so sharing them is safe.
 */
export class FiguresCache {
  private readonly byText = new Map<string, PositionFigures>();
  constructor(private readonly max = 20_000) {}

  /** The figures of `text`, parsed once while they stay in the cache. */
  parse(text: string): PositionFigures {
    let f = this.byText.get(text);
    if (f === undefined) {
      // Cleared whole when full: simpler than an LRU, and a refill costs one parse per row.
      if (this.byText.size >= this.max) this.byText.clear();
      f = Object.freeze(figuresFromJson(text));
      this.byText.set(text, f);
    }
    return f;
  }
}

/** A stored position row as a record (`cache`: figures parsed once by text, for the read paths). */
export function toPosition(r: Selectable<PositionsTable>, cache?: FiguresCache): PositionRecord {
  return {
    apiKeyId: Number(r.api_key_id),
    wallet: r.wallet,
    mint: r.mint,
    status: r.status === "closed" ? "closed" : "open",
    figures: cache !== undefined ? cache.parse(r.figures) : figuresFromJson(r.figures),
    decimals: r.decimals === null ? null : Number(r.decimals),
    openedAt: r.opened_at,
    lastTradeAt: r.last_trade_at,
    closedAt: r.closed_at,
    lastExecutionId: r.last_execution_id,
    updatedAt: r.updated_at,
  };
}

/** A ledger line as stored (amounts as decimal strings). */
export function entryToJson(e: LedgerEntry): string {
  return JSON.stringify(e, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/** A stored ledger line back. */
export function entryFromJson(text: string): LedgerEntry {
  const r = JSON.parse(text) as Record<string, string>;
  const n = (k: string): bigint => BigInt(r[k] ?? "0");
  return {
    side: r.side === "sell" ? "sell" : "buy",
    tokens: n("tokens"),
    sol: n("sol"),
    fee: n("fee"),
    tip: n("tip"),
    rent: n("rent"),
    costRemoved: n("costRemoved"),
    realizedPnl: n("realizedPnl"),
    outsideTokens: n("outsideTokens"),
  };
}

/** The position's stored row as an event's payload (the domain shapes it as the API's position). */
export function positionEventData(p: PositionRecord): string {
  return JSON.stringify({ position: { ...p, figures: JSON.parse(figuresToJson(p.figures)) as unknown } });
}

/** A position that has seen no fill yet: `f`'s, before it. */
export function newPosition(f: ExecutionFill, now: string): PositionRecord {
  return {
    apiKeyId: f.apiKeyId,
    wallet: f.wallet,
    mint: f.mint,
    status: "closed",
    figures: emptyFigures(),
    decimals: f.decimals,
    openedAt: f.at,
    lastTradeAt: f.at,
    closedAt: null,
    lastExecutionId: null,
    updatedAt: now,
  };
}

/** The position after `f` and its ledger line (pure: the live writer and the rebuild share it). */
export function foldFill(
  before: PositionRecord,
  f: ExecutionFill,
  now: string,
): { after: PositionRecord; entry: LedgerEntry } {
  const { figures, entry } = applyFill(before.figures, f.fill);
  const reopened = before.figures.tokensHeld === 0n;
  const open = figures.tokensHeld > 0n;
  return {
    after: {
      ...before,
      status: open ? "open" : "closed",
      figures,
      decimals: f.decimals ?? before.decimals,
      openedAt: reopened ? f.at : before.openedAt,
      lastTradeAt: f.at,
      closedAt: open ? null : f.at,
      lastExecutionId: f.executionId,
      updatedAt: now,
    },
    entry,
  };
}

/** The stored row of `f`'s ledger line. */
export function entryRow(f: ExecutionFill, entry: LedgerEntry): Insertable<PositionEntriesTable> {
  return {
    api_key_id: f.apiKeyId,
    execution_id: f.executionId,
    leg: f.leg,
    wallet: f.wallet,
    mint: f.mint,
    side: entry.side,
    entry: entryToJson(entry),
    at: f.at,
  };
}

/** The stored row of a position. */
export function positionRow(p: PositionRecord): Insertable<PositionsTable> {
  return {
    api_key_id: p.apiKeyId,
    wallet: p.wallet,
    mint: p.mint,
    status: p.status,
    figures: figuresToJson(p.figures),
    decimals: p.decimals,
    opened_at: p.openedAt,
    last_trade_at: p.lastTradeAt,
    closed_at: p.closedAt,
    last_execution_id: p.lastExecutionId,
    updated_at: p.updatedAt,
  };
}

/**
 * Applies `f` to its position in `trx` and writes its ledger line (and, with `event`, a position.updated event);
 * the position after it, or null when this execution was already applied.
 */
export async function applyExecutionFill(
  trx: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  f: ExecutionFill,
  now: string,
  event: boolean,
): Promise<PositionRecord | null> {
  const done = await trx
    .selectFrom("position_entries")
    .select("execution_id")
    .where("api_key_id", "=", f.apiKeyId)
    .where("execution_id", "=", f.executionId)
    .where("leg", "=", f.leg)
    .executeTakeFirst();
  if (done !== undefined) return null;
  // Insert-if-absent then lock: two first fills of one position at once serialize on the row, never conflict.
  await trx
    .insertInto("positions")
    .values(positionRow(newPosition(f, now)))
    .onConflict((oc) => oc.columns(["api_key_id", "wallet", "mint"]).doNothing())
    .execute();
  let select = trx
    .selectFrom("positions")
    .selectAll()
    .where("api_key_id", "=", f.apiKeyId)
    .where("wallet", "=", f.wallet)
    .where("mint", "=", f.mint);
  if (dialect === "postgres") select = select.forUpdate();
  const { after, entry } = foldFill(toPosition(await select.executeTakeFirstOrThrow()), f, now);
  await trx
    .updateTable("positions")
    .set({
      status: after.status,
      figures: figuresToJson(after.figures),
      decimals: after.decimals,
      opened_at: after.openedAt,
      last_trade_at: after.lastTradeAt,
      closed_at: after.closedAt,
      last_execution_id: after.lastExecutionId,
      updated_at: now,
    })
    .where("api_key_id", "=", f.apiKeyId)
    .where("wallet", "=", f.wallet)
    .where("mint", "=", f.mint)
    .execute();
  await trx.insertInto("position_entries").values(entryRow(f, entry)).execute();
  if (event) await insertPositionEvent(trx, after, f.kind, now);
  return after;
}

/**
 * `applyExecutionFill` inside a savepoint of the outcome's transaction: a ledger that cannot take the fill (a
 * bug, a constraint) is rolled back alone and the outcome is still recorded — a trade's record never waits on
 * its position; `npm run positions:rebuild` repairs the ledger. Returns whether it was applied.
 */
export async function applyFillBesideOutcome(
  trx: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  f: ExecutionFill,
  now: string,
): Promise<boolean> {
  await sql`savepoint position_ledger`.execute(trx);
  try {
    const applied = await applyExecutionFill(trx, dialect, f, now, true);
    await sql`release savepoint position_ledger`.execute(trx);
    return applied !== null;
  } catch {
    await sql`rollback to savepoint position_ledger`.execute(trx);
    await sql`release savepoint position_ledger`.execute(trx);
    return false;
  }
}

/** Writes a position.updated event into the account's outbox, numbered as the execution events are. */
async function insertPositionEvent(
  trx: Kysely<Database>,
  p: PositionRecord,
  kind: string,
  now: string,
): Promise<void> {
  const seq = await trx
    .insertInto("event_sequences")
    .values({ api_key_id: p.apiKeyId, last_id: 1 })
    .onConflict((oc) => oc.column("api_key_id").doUpdateSet({ last_id: sql`event_sequences.last_id + 1` }))
    .returning("last_id")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("events")
    .values({
      api_key_id: p.apiKeyId,
      id: Number(seq.last_id),
      type: "position.updated",
      execution_id: p.lastExecutionId ?? "",
      kind,
      wallet: p.wallet,
      wallets: JSON.stringify([p.wallet]),
      signatures: "[]",
      status: p.status,
      error: null,
      created_at: now,
      data: positionEventData(p),
    })
    .execute();
}
