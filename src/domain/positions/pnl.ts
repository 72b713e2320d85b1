/**
 * Issue 33: GET /v1/pnl's figures from the ledger lines of a period (pure). Realized PnL, fees, tips, volume
 * and trade counts belong to the trades inside [from, to); unrealized PnL is the open positions' now (it has
 * no history), so it is given per mint and per wallet and in the total, never per day.
 */
import type { PositionEntryRecord } from "../../store/index.js";
import type { PnlGroup } from "./query.js";

/** One group's (or the total's) figures, amounts as decimal strings. */
export interface PnlFigures {
  realized_pnl_lamports: string;
  /** null for a day (no history of valuations) or when an open position could not be valued. */
  unrealized_pnl_lamports: string | null;
  fee_lamports: string;
  tip_lamports: string;
  rent_lamports: string;
  /** SOL moved by the trades: spent on buys plus received from sells. */
  volume_lamports: string;
  buy_count: number;
  sell_count: number;
  trade_count: number;
}

/** A group's key and figures. */
export type PnlGroupView = { key: string } & PnlFigures;

interface Sums {
  realized: bigint;
  fee: bigint;
  tip: bigint;
  rent: bigint;
  volume: bigint;
  buys: number;
  sells: number;
}

const zero = (): Sums => ({ realized: 0n, fee: 0n, tip: 0n, rent: 0n, volume: 0n, buys: 0, sells: 0 });

function add(s: Sums, e: PositionEntryRecord): void {
  const x = e.entry;
  s.realized += x.realizedPnl;
  s.fee += x.fee;
  s.tip += x.tip;
  s.rent += x.rent;
  s.volume += x.sol < 0n ? -x.sol : x.sol;
  if (x.side === "buy") s.buys++;
  else s.sells++;
}

function figures(s: Sums, unrealized: bigint | null): PnlFigures {
  return {
    realized_pnl_lamports: s.realized.toString(),
    unrealized_pnl_lamports: unrealized === null ? null : unrealized.toString(),
    fee_lamports: s.fee.toString(),
    tip_lamports: s.tip.toString(),
    rent_lamports: s.rent.toString(),
    volume_lamports: s.volume.toString(),
    buy_count: s.buys,
    sell_count: s.sells,
    trade_count: s.buys + s.sells,
  };
}

/** The group key of a ledger line: its UTC day, mint or wallet. */
function keyOf(e: PositionEntryRecord, group: PnlGroup): string {
  if (group === "day") return e.at.slice(0, 10);
  return group === "mint" ? e.mint : e.wallet;
}

/** Unrealized PnL now of the open positions, per key of a grouping (null when one could not be valued). */
export type UnrealizedOf = (group: "mint" | "wallet" | "total", key: string) => bigint | null;

/** The total and (with `group`) the groups in key order; groups with only unrealized PnL are listed too. */
export function pnlOf(
  entries: readonly PositionEntryRecord[],
  group: PnlGroup | undefined,
  unrealized: UnrealizedOf,
  openKeys: { mint: readonly string[]; wallet: readonly string[] },
): { total: PnlFigures; groups?: PnlGroupView[] } {
  const total = zero();
  const groups = new Map<string, Sums>();
  for (const e of entries) {
    add(total, e);
    if (group === undefined) continue;
    const k = keyOf(e, group);
    let s = groups.get(k);
    if (s === undefined) groups.set(k, (s = zero()));
    add(s, e);
  }
  const out: { total: PnlFigures; groups?: PnlGroupView[] } = {
    total: figures(total, unrealized("total", "")),
  };
  if (group === undefined) return out;
  if (group !== "day") for (const k of openKeys[group]) if (!groups.has(k)) groups.set(k, zero());
  out.groups = [...groups.keys()].sort().map((k) => ({
    key: k,
    ...figures(groups.get(k)!, group === "day" ? null : unrealized(group, k)),
  }));
  return out;
}
