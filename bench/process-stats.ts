/**
 * CPU time and peak memory of another process in the bench's units (ms, MB), from the harness's /proc reader
 * (the service and the localnet run in their own processes; nothing in them is instrumented). NaN where
 * /proc cannot tell (not Linux, or the process has exited), which the report prints as "-".
 */
import { spawn, type ChildProcess } from "node:child_process";
import { procUsage } from "../test/harness/index.js";

/** User + system CPU milliseconds the process has used so far. */
export function cpuMsOf(pid: number): number {
  return procUsage(pid)?.cpuMs ?? NaN;
}

/** Peak resident set size (VmHWM) in MB. */
export function peakRssMbOf(pid: number): number {
  return (procUsage(pid)?.peakRssBytes ?? NaN) / 2 ** 20;
}

/** Where the service's memory is, from its own /metrics (prom-client's process and V8 heap gauges), in MB. */
export async function memoryBreakdown(baseUrl: string): Promise<string> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const mb = (pattern: string): string => {
    const m = new RegExp(`^${pattern} ([0-9.e+]+)`, "m").exec(text);
    return m ? (Number(m[1]) / 1024 / 1024).toFixed(1) : "-";
  };
  return [
    `RSS now ${mb("process_resident_memory_bytes")}`,
    `V8 heap total ${mb("nodejs_heap_size_total_bytes")} (used ${mb("nodejs_heap_size_used_bytes")}`,
    `new space ${mb('nodejs_heap_space_size_total_bytes\\{space="new"\\}')}`,
    `code ${mb('nodejs_heap_space_size_total_bytes\\{space="code"\\}')})`,
    `external ${mb("nodejs_external_memory_bytes")}`,
  ].join(", ");
}

/** Starts `perf record -e task-clock` (CPU time only) of `pids` into `file`; `callGraph` adds `-g`. */
export function perfRecord(file: string, pids: readonly (number | string)[], callGraph = true): ChildProcess {
  const args = [
    "record",
    "-e",
    "task-clock",
    "-F",
    "1999",
    ...(callGraph ? ["-g"] : []),
    "-o",
    file,
    "-p",
    pids.join(","),
  ];
  return spawn("perf", args, { stdio: "ignore" });
}

/** Runs a bench script's `main` and exits with 0, or with 1 after printing what it threw. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
