/**
 * Issue 33: applies one recorded trade fill to its position, inside the caller's transaction (the one that
 * records the fill, or the rebuild's), so the ledger never disagrees with the execution history.
 */
import { sql, type Kysely, type Selectable } from "kysely";
import {
  applyFill,
  emptyFigures,
  figuresFromJson,
  figuresToJson,
  type LedgerEntry,
  type LedgerFill,
} from "../../core/average-cost.js";
import type { Database, PositionsTable } from "../schema.js";
import type { PositionRecord } from "./position-types.js";

/** A trade fill as a stored execution carries it, with whose position it moves. */
export interface ExecutionFill {
  apiKeyId: number;
  executionId: string;
  wallet: string;
  mint: string;
  /** The execution's created_at: the trade's time in the ledger (the same live and on rebuild). */
  at: string;
  fill: LedgerFill;
  decimals: number | null;
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

/**
 * The ledger fill of a stored execution: a confirmed (or finalized) trade whose response holds the chain's
 * fill (`response.fill`, issue 22); null for anything else.
 */
export function executionFillOf(row: ExecutionRowForFill): ExecutionFill | null {
  if (row.kind !== "trade" || (row.status !== "confirmed" && row.status !== "finalized")) return null;
  const request = parse(row.request);
  const response = parse(row.response);
  if (!isObject(request) || !isObject(response) || !isObject(response.fill)) return null;
  const side = request.action;
  // The response's mint is the resolved one (a request may name only a pool), as fill.ts reads it.
  const mint = typeof response.mint === "string" ? response.mint : request.mint;
  if ((side !== "buy" && side !== "sell") || typeof mint !== "string") return null;
  const f = response.fill;
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
    apiKeyId: Number(row.api_key_id),
    executionId: row.id,
    wallet: row.wallet,
    mint,
    at: row.created_at,
    fill: { side, solChange, fee, tip, rent, tokenChange, balanceAfter: amount(f.token_balance_after) },
    decimals: typeof f.token_decimals === "number" ? f.token_decimals : null,
  };
}

/** A stored position row as a record. */
export function toPosition(r: Selectable<PositionsTable>): PositionRecord {
  return {
    apiKeyId: Number(r.api_key_id),
    wallet: r.wallet,
    mint: r.mint,
    status: r.status === "closed" ? "closed" : "open",
    figures: figuresFromJson(r.figures),
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
    .executeTakeFirst();
  if (done !== undefined) return null;
  // Insert-if-absent then lock: two first fills of one position at once serialize on the row, never conflict.
  await trx
    .insertInto("positions")
    .values({
      api_key_id: f.apiKeyId,
      wallet: f.wallet,
      mint: f.mint,
      status: "closed",
      figures: figuresToJson(emptyFigures()),
      decimals: f.decimals,
      opened_at: f.at,
      last_trade_at: f.at,
      closed_at: null,
      last_execution_id: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["api_key_id", "wallet", "mint"]).doNothing())
    .execute();
  let select = trx
    .selectFrom("positions")
    .selectAll()
    .where("api_key_id", "=", f.apiKeyId)
    .where("wallet", "=", f.wallet)
    .where("mint", "=", f.mint);
  if (dialect === "postgres") select = select.forUpdate();
  const before = toPosition(await select.executeTakeFirstOrThrow());
  const { figures, entry } = applyFill(before.figures, f.fill);
  const reopened = before.figures.tokensHeld === 0n;
  const open = figures.tokensHeld > 0n;
  const after: PositionRecord = {
    ...before,
    status: open ? "open" : "closed",
    figures,
    decimals: f.decimals ?? before.decimals,
    openedAt: reopened ? f.at : before.openedAt,
    lastTradeAt: f.at,
    closedAt: open ? null : f.at,
    lastExecutionId: f.executionId,
    updatedAt: now,
  };
  await trx
    .updateTable("positions")
    .set({
      status: after.status,
      figures: figuresToJson(figures),
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
  await trx
    .insertInto("position_entries")
    .values({
      api_key_id: f.apiKeyId,
      execution_id: f.executionId,
      wallet: f.wallet,
      mint: f.mint,
      side: entry.side,
      entry: entryToJson(entry),
      at: f.at,
    })
    .execute();
  if (event) await insertPositionEvent(trx, after, now);
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
async function insertPositionEvent(trx: Kysely<Database>, p: PositionRecord, now: string): Promise<void> {
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
      kind: "trade",
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
