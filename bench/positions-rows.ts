/**
 * `npx tsx bench/positions-rows.ts`: CPU time of a page of 500 positions' rows turned into the answer (figures
 * parsed, the view built, JSON text), without and with the store's figures cache, interleaved so a loaded
 * machine weighs on both alike (issue 33). No database: the rows are what a driver returns (fresh strings).
 */
import { Keypair } from "@solana/web3.js";
import { FiguresCache, toPosition } from "../src/store/positions/apply-fill.js";
import { positionView } from "../src/domain/positions/view.js";
import { figuresToJson, applyFill, emptyFigures } from "../src/core/average-cost.js";
const { figures } = applyFill(emptyFigures(), {
  side: "buy",
  solChange: -100005000n,
  fee: 5000n,
  tip: 0n,
  rent: 2039280n,
  tokenChange: 3500000000000n,
  balanceAfter: 3500000000000n,
});
const text = figuresToJson(figures);
const wallet = Keypair.generate().publicKey.toBase58();
const rows = Array.from({ length: 500 }, () => ({
  api_key_id: 1,
  wallet,
  mint: Keypair.generate().publicKey.toBase58(),
  status: "open",
  figures: text,
  decimals: 6,
  opened_at: "2026-01-01T00:00:00.000",
  last_trade_at: "2026-01-01T00:00:00.000",
  closed_at: null,
  last_execution_id: "0190a1b2",
  updated_at: "x",
}));
// Fresh strings per read, as a driver returns them.
const fresh = () => rows.map((r) => ({ ...r, figures: (" " + r.figures).slice(1) }));
const v = { source: "none" as const, slot: null, venue: null, liquidationValue: null, detail: "x" };
const cache = new FiguresCache();
const run = (withCache: boolean) => {
  const rs = fresh();
  const s = process.cpuUsage();
  for (let k = 0; k < 20; k++) {
    const page = rs.map((r) => toPosition(r as never, withCache ? cache : undefined));
    JSON.stringify(page.map((p) => positionView(p, v)));
  }
  const u = process.cpuUsage(s);
  return (u.user + u.system) / 1000 / 20;
};
const a: number[] = [],
  b: number[] = [];
for (let i = 0; i < 30; i++) {
  a.push(run(false));
  b.push(run(true));
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[15]!.toFixed(2);
console.log(
  `500 rows parse+view+stringify, cpu ms median of 30 interleaved: without cache ${med(a)}, with cache ${med(b)}`,
);
