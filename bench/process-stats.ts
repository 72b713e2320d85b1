/**
 * CPU time and peak memory of another process, read from Linux's /proc (the service and the localnet run in
 * their own processes; the bench reads them from outside, so nothing in the service is instrumented).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU milliseconds the process has used so far. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

/** Peak resident set size (VmHWM) in MB, and the current one (VmRSS). */
export function memoryOf(pid: number): { peakRssMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakRssMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}
