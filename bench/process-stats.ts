/**
 * CPU time and peak memory of another process in the bench's units (ms, MB), from the harness's /proc reader
 * (the service and the localnet run in their own processes; nothing in them is instrumented). NaN where
 * /proc cannot tell (not Linux, or the process has exited), which the report prints as "-".
 */
import { procUsage } from "../test/harness/index.js";

/** User + system CPU milliseconds the process has used so far. */
export function cpuMsOf(pid: number): number {
  return procUsage(pid)?.cpuMs ?? NaN;
}

/** Peak resident set size (VmHWM) in MB. */
export function peakRssMbOf(pid: number): number {
  return (procUsage(pid)?.peakRssBytes ?? NaN) / 2 ** 20;
}
