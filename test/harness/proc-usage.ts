/**
 * CPU time and peak memory of a child process, read from Linux's /proc (the benchmark measures the
 * service process alone this way). Elsewhere it answers null.
 */
import { readFileSync } from "node:fs";

/** What /proc says about one process. */
export interface ProcUsage {
  /** User + system CPU time so far, ms. */
  cpuMs: number;
  /** Peak resident set size (VmHWM), bytes. */
  peakRssBytes: number;
  /** Current resident set size (VmRSS), bytes. */
  rssBytes: number;
}

// USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every mainstream Linux build.
const CLOCK_TICKS_PER_S = 100;

/** Parses /proc/<pid>/stat and /proc/<pid>/status texts (pure; exported for tests). */
export function parseProcUsage(stat: string, status: string): ProcUsage {
  // Fields after the command name, which sits in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line, i.e. 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    return m === null ? 0 : Number(m[1]) * 1024;
  };
  return { cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_S, peakRssBytes: kb("VmHWM"), rssBytes: kb("VmRSS") };
}

/** Usage of process `pid`, or null when /proc is not there or the process has exited. */
export function procUsage(pid: number): ProcUsage | null {
  try {
    return parseProcUsage(
      readFileSync(`/proc/${pid}/stat`, "utf8"),
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
  } catch {
    return null;
  }
}
