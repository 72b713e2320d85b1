/**
 * `npx tsx bench/heap-sampling-summary.ts <file.heapprofile> --trades N [--top 30]`: allocation per trade by
 * function from a V8 sampling heap profile taken with garbage included (`bench/heap-sampling.mjs`,
 * `profile-trade.ts --heap-sampling`). Prints, in bytes per trade: the total; the top functions by self
 * allocation (where the object was allocated, library and Node internals included); the same charged to the
 * nearest frame of the service's own code on the stack (`dist/src/`: which of our calls the allocation came
 * from); and by package / project folder.
 */
import { readFileSync } from "node:fs";
import { bucketOf, shortUrl } from "./profile-summary.js";
import { numberFlag } from "./flags.js";

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** One table row: a name and its bytes per trade. */
interface Row {
  name: string;
  bytes: number;
}

function frameName(f: HeapNode["callFrame"]): string {
  return `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
}

const ownCode = (url: string): boolean => url.includes("/dist/src/");

/** The three tables (self by function, by our nearest frame, by package) and the total, in bytes. */
export function summarizeHeapProfile(head: HeapNode): {
  total: number;
  self: Row[];
  own: Row[];
  buckets: Row[];
} {
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  const buckets = new Map<string, number>();
  let total = 0;
  const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);
  const walk = (n: HeapNode, nearestOwn: string): void => {
    const here = ownCode(n.callFrame.url) ? frameName(n.callFrame) : nearestOwn;
    if (n.selfSize > 0) {
      total += n.selfSize;
      add(self, frameName(n.callFrame), n.selfSize);
      add(own, here, n.selfSize);
      add(buckets, bucketOf(n.callFrame.url), n.selfSize);
    }
    for (const c of n.children) walk(c, here);
  };
  walk(head, "(no frame of dist/src on the stack)");
  const rows = (m: Map<string, number>): Row[] =>
    [...m].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { total, self: rows(self), own: rows(own), buckets: rows(buckets) };
}

/** Markdown tables of `summarizeHeapProfile`, per trade. */
export function heapProfileTables(head: HeapNode, trades: number, top: number): string {
  const s = summarizeHeapProfile(head);
  const table = (title: string, rows: Row[]): string =>
    [
      `| ${title} | bytes/trade | share |`,
      "|---|---:|---:|",
      ...rows
        .slice(0, top)
        .map(
          (r) =>
            `| ${r.name} | ${(r.bytes / trades).toFixed(0)} | ${((r.bytes / s.total) * 100).toFixed(1)} % |`,
        ),
    ].join("\n");
  return [
    `allocated ${(s.total / trades / 1024).toFixed(1)} KB per trade (${trades} trades, garbage included)`,
    "",
    table("allocated in (self)", s.self),
    "",
    table("nearest own frame (dist/src)", s.own),
    "",
    table("package / folder", s.buckets),
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const file = argv[0];
  const trades = numberFlag(argv, "trades", Number.NaN);
  const top = numberFlag(argv, "top", 30);
  if (file === undefined || !(trades > 0)) throw new Error("usage: heap-sampling-summary.ts FILE --trades N");
  const profile = JSON.parse(readFileSync(file, "utf8")) as { head: HeapNode };
  process.stdout.write(heapProfileTables(profile.head, trades, top));
}
