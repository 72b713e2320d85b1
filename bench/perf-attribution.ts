/**
 * `npx tsx bench/perf-attribution.ts <perf.data> --trades N [--top 30]`: the service CPU of a `perf record -g`
 * file (as `bench/profile-trade.ts --perf` writes it) charged to the nearest JavaScript frame with a source
 * file, walking from the sampled frame towards the root. The self-time table of `profile-trade.ts` charges
 * most samples to V8 builtins, IC stubs and kernel symbols, which names no code of ours; this one says whose
 * code ran them. Samples with no such frame are split by what ran (GC, compiler, kernel, SQLite, crypto).
 * Also an inclusive table: the share of samples whose stack contains each package/folder at all, and one by
 * thread (the main thread against V8's and libuv's worker threads, the latter by what ran: compiler, GC, …).
 */
import { execFileSync } from "node:child_process";
import { numberFlag } from "./flags.js";

interface Sample {
  period: number;
  /** Whether the sample is of the process's main thread (JS, the event loop) or another (V8's workers, libuv's pool). */
  main: boolean;
  frames: string[];
}

function readSamples(file: string): Sample[] {
  const text = execFileSync("perf", ["script", "-i", file, "-F", "pid,tid,period,ip,sym"], {
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  const samples: Sample[] = [];
  let cur: Sample | null = null;
  for (const line of text.split("\n")) {
    const head = /^\s*(\d+)\/(\d+)\s+(\d+)\s*$/.exec(line);
    if (head) {
      cur = { period: Number(head[3]), main: head[1] === head[2], frames: [] };
      samples.push(cur);
    } else if (cur !== null && line.trim() !== "") {
      cur.frames.push(line.trim().replace(/^[0-9a-f]+\s+/, ""));
    }
  }
  return samples;
}

/** Package (node_modules), dist folder, or node built-in of a JS frame; undefined for a native frame. */
function place(frame: string): string | undefined {
  const url = /(file:\/\/\S+|node:(?!:)\S+|\/\S+\.[cm]?js:\d+:\d+)/.exec(frame)?.[1];
  if (url === undefined) return undefined;
  if (url.startsWith("node:")) return `node:${url.slice(5).split(":")[0]}`;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + 13).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return /\/dist\/((src|localnet)\/.*)\/[^/]+:\d+:\d+$/.exec(url)?.[1] ?? url;
}

function nativeKind(frames: string[]): string {
  const all = frames.join("\n");
  if (/Scavenger|MarkCompact|Heap::|GCTracer|Sweeper|ConcurrentMarking/.test(all)) return "(GC)";
  if (/compiler::|Compile|Turbofan|Maglev|Baseline/.test(all)) return "(V8 compiler)";
  if (/sqlite3/.test(all)) return "(SQLite)";
  if (/fe_mul|ed25519|EVP_|AES|aes|sha512|SHA512/.test(all)) return "(crypto)";
  if (/uv__|uv_run/.test(all) && /^ffffffff/.test(frames[0] ?? "")) return "(kernel, from libuv)";
  if (/^ffffffff/m.test(all)) return "(kernel)";
  return "(other native)";
}

function frameName(frame: string): string {
  return frame.replace(/^JS:[~^*]?/, "").replace(/(file:\/\/)?\S*\/(node_modules|dist)\//, "");
}

function table(title: string, m: Map<string, number>, total: number, trades: number, top: number): string {
  const rows = [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `| ${title} | share | µs per trade |`,
    "|---|---:|---:|",
    ...rows.map(
      ([k, v]) => `| \`${k}\` | ${((v / total) * 100).toFixed(1)} % | ${(v / 1000 / trades).toFixed(1)} |`,
    ),
    "",
  ].join("\n");
}

/** The three tables (nearest JS frame by place and by function, inclusive by place) as markdown. */
export function attribution(file: string, trades: number, top: number): string {
  const samples = readSamples(file);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  // Off the main thread nothing is JS: V8's concurrent compiler and marker, libuv's pool (SQLite's fsync, crypto).
  // TurboFan's share sits there; the main-thread rows above fold what ran there into the nearest JS frame.
  const byThread = new Map<string, number>();
  let total = 0;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const s of samples) {
    total += s.period;
    add(byThread, s.main ? "main thread" : `other threads: ${nativeKind(s.frames)}`, s.period);
    const js = s.frames.find((f) => place(f) !== undefined);
    if (js === undefined) {
      const k = nativeKind(s.frames);
      add(byPlace, k, s.period);
      add(byFunction, k, s.period);
    } else {
      add(byPlace, place(js)!, s.period);
      add(byFunction, frameName(js), s.period);
    }
    for (const p of new Set(s.frames.map(place).filter((p) => p !== undefined))) add(inclusive, p, s.period);
  }
  return [
    `${samples.length} samples, ${(total / 1e6).toFixed(0)} ms CPU over ${trades} trades = ${(total / 1e6 / trades).toFixed(3)} ms per trade`,
    "",
    table("nearest JS frame: package / folder", byPlace, total, trades, top),
    table("nearest JS frame: function", byFunction, total, trades, top),
    table("inclusive: package / folder anywhere on the stack", inclusive, total, trades, top),
    table("thread (other threads by what ran)", byThread, total, trades, top),
  ].join("\n");
}

const argv = process.argv.slice(2);
if (argv[0] !== undefined && import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(attribution(argv[0], numberFlag(argv, "trades", 1), numberFlag(argv, "top", 30)));
}
