/**
 * The per-set-up summary both landing benches print (the chain-layer one, bench/landing.ts, and the HTTP one,
 * bench/landing-scenario.ts): trades landed, landing rate, slots from send to land (p50/p90), tips per landed
 * trade and double fills, then each bench's own checks as further columns.
 */
import { percentile } from "../src/chain/landing/route-stats.js";

/** What one set-up (a route alone, or the race) counted. */
export interface LandingRow {
  setup: string;
  trades: number;
  landed: number;
  slots: number[];
  tips: bigint;
  /** Trades with more than one landed variant. */
  doubleFills: number;
  balanceOk: boolean;
}

/** An empty count for `trades` trades of `setup`. */
export function landingRow(setup: string, trades: number): LandingRow {
  return { setup, trades, landed: 0, slots: [], tips: 0n, doubleFills: 0, balanceOk: true };
}

/** The share of the trades that landed, as the tables print it ("12.5 %"). */
export function landingRate(r: Pick<LandingRow, "landed" | "trades">): string {
  return `${((100 * r.landed) / r.trades).toFixed(1)} %`;
}

/** A column a bench adds after the common ones: its heading and its cell. */
export type LandingColumn<R> = readonly [heading: string, cell: (r: R) => string];

/** The markdown table of `rows`: the common columns, then `more`. */
export function renderLanding<R extends LandingRow>(rows: R[], more: LandingColumn<R>[]): string {
  const headings = [
    "set-up",
    "trades",
    "landed",
    "landing rate",
    "slots to land p50",
    "p90",
    "tips per landed trade (lamports)",
    "double fills",
    ...more.map(([h]) => h),
  ];
  const lines = [`| ${headings.join(" | ")} |`, `|${"---|".repeat(headings.length)}`];
  for (const r of rows) {
    const s = [...r.slots].sort((a, b) => a - b);
    const cells = [
      r.setup,
      String(r.trades),
      String(r.landed),
      landingRate(r),
      String(percentile(s, 50) ?? "-"),
      String(percentile(s, 90) ?? "-"),
      r.landed === 0 ? "-" : (r.tips / BigInt(r.landed)).toString(),
      String(r.doubleFills),
      ...more.map(([, cell]) => cell(r)),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}
