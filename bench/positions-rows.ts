/**
 * `npx tsx bench/positions-rows.ts`: CPU time of a page of 500 positions' rows turned into the answer (figures
 * parsed, the view built, JSON text), without and with the store's figures cache, and with the kept row bytes
 * GET /v1/positions now answers from (page-text.ts), interleaved so a loaded machine weighs on all alike
 * (issue 33). No database: the rows are what a driver returns (fresh strings).
 */
import { Keypair } from "@solana/web3.js";
import { FiguresCache, toPosition } from "../src/store/positions/apply-fill.js";
import { positionView } from "../src/domain/positions/view.js";
import { PositionTextCache, positionsPageBytes } from "../src/domain/positions/page-text.js";
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
const copy = (t: string) => (" " + t).slice(1);
const fresh = () =>
  rows.map((r) => ({ ...r, wallet: copy(r.wallet), mint: copy(r.mint), figures: copy(r.figures) }));
const v = { source: "none" as const, slot: null, venue: null, liquidationValue: null, detail: "x" };
const cache = new FiguresCache();
const texts = new PositionTextCache();
const run = (way: "no cache" | "cache" | "row bytes") => {
  const s = process.cpuUsage();
  for (let k = 0; k < 20; k++) {
    // Each request reads fresh strings from the driver.
    const page = fresh().map((r) => toPosition(r as never, way === "no cache" ? undefined : cache));
    if (way === "row bytes")
      positionsPageBytes(
        texts,
        page.map((record) => ({ record, valuation: v })),
        500,
        null,
      );
    else Buffer.from(JSON.stringify(page.map((p) => positionView(p, v))));
  }
  const u = process.cpuUsage(s);
  return (u.user + u.system) / 1000 / 20;
};
const a: number[] = [],
  b: number[] = [],
  c: number[] = [];
for (let i = 0; i < 30; i++) {
  a.push(run("no cache"));
  b.push(run("cache"));
  c.push(run("row bytes"));
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[15]!.toFixed(2);
console.log(
  `500 rows to the answer's bytes, cpu ms median of 30 interleaved: without cache ${med(a)}, with cache ${med(b)}, kept row bytes ${med(c)}`,
);
