/**
 * Text "flame graph" of a V8 .cpuprofile (`node --cpu-prof`): the top-N functions by self time, and the top
 * packages / project folders by self time, as markdown tables.
 * Usage: `npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25]`.
 */
import { readFileSync } from "node:fs";
import { numberFlag } from "./flags.js";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** One row of the summary. */
export interface ProfileRow {
  name: string;
  selfMs: number;
  share: number;
}

// node_modules/<pkg> or <scope>/<pkg>, else the project folder (src/chain, localnet/...), else the V8 bucket.
/** The package or project folder a profile frame's URL belongs to (heap-sampling-summary.ts uses it too). */
export function bucketOf(url: string): string {
  if (url === "") return "(native / V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith("node:")) return "node (built-in modules)";
  const m = /\/(src|localnet|bench|test)\/(.*)\/[^/]+$/.exec(url);
  if (m) return `${m[1]}/${m[2]}`;
  const f = /\/(src|localnet|bench|test)\/[^/]+$/.exec(url);
  return f ? f[1]! : url;
}

/** A frame's URL from its package or project folder on. */
export function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const m = /\/((src|localnet|bench|test)\/.*)$/.exec(url);
  return m ? m[1]! : url.replace(/^file:\/\//, "");
}

/** A time window of the profile (monotonic clock, µs, as `process.hrtime` of any process on the machine). */
export interface CpuProfileWindow {
  fromUs: number;
  toUs: number;
  /** Trades made in the window: the tables gain a per-trade column. */
  trades?: number;
}

/** Self time per function and per package/folder of a parsed profile (only the samples inside `window`). */
export function summarizeProfile(
  profile: CpuProfile,
  window?: CpuProfileWindow,
): {
  totalMs: number;
  functions: ProfileRow[];
  buckets: ProfileRow[];
  inclusive: ProfileRow[];
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let clock = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    clock += delta;
    if (window !== undefined && (clock < window.fromUs || clock > window.toUs)) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const fn = new Map<string, number>();
  const bucket = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    total += us;
    const key = url
      ? `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`
      : functionName || "(anonymous)";
    fn.set(key, (fn.get(key) ?? 0) + us);
    const b = bucketOf(url);
    bucket.set(b, (bucket.get(b) ?? 0) + us);
    // Inclusive time: every distinct project or SDK frame on the sample's stack, counted once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)?.callFrame;
      if (!f?.url || f.url.startsWith("node:")) continue;
      const k = `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
      if (!seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + us);
      }
    }
  }
  const rows = (m: Map<string, number>): ProfileRow[] =>
    [...m.entries()]
      .map(([name, us]) => ({ name, selfMs: us / 1000, share: total === 0 ? 0 : us / total }))
      .sort((a, b) => b.selfMs - a.selfMs);
  return { totalMs: total / 1000, functions: rows(fn), buckets: rows(bucket), inclusive: rows(incl) };
}

/** Markdown tables of the top `top` rows of each summary (with µs per trade when `trades` is given). */
export function profileTables(
  summary: ReturnType<typeof summarizeProfile>,
  top: number,
  trades?: number,
): string {
  const perTrade = trades !== undefined && trades > 0;
  const table = (title: string, rows: ProfileRow[]): string[] => [
    `| ${title} | self ms | share |${perTrade ? " µs per trade |" : ""}`,
    `|---|---:|---:|${perTrade ? "---:|" : ""}`,
    ...rows
      .slice(0, top)
      .map(
        (r) =>
          `| \`${r.name}\` | ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} % |` +
          (perTrade ? ` ${((r.selfMs * 1000) / trades).toFixed(1)} |` : ""),
      ),
  ];
  return [
    `Busy (non-idle) samples: ${summary.totalMs.toFixed(0)} ms` +
      (perTrade ? ` (${(summary.totalMs / trades).toFixed(3)} ms per trade over ${trades} trades)` : ""),
    "",
    ...table("package / folder", summary.buckets),
    "",
    ...table("function (self time)", summary.functions),
    "",
    ...table("function (inclusive time)", summary.inclusive).map((l) => l.replace("self ms", "total ms")),
  ].join("\n");
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: tsx bench/profile-summary.ts <file.cpuprofile> [--top N]\n");
    process.exit(2);
  }
  const top = numberFlag(process.argv, "top", 25);
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  process.stdout.write(`${profileTables(summarizeProfile(profile), top)}\n`);
}
