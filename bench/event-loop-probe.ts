/**
 * The service's event-loop delay over a window, read from its own /metrics: prom-client's default metrics
 * sample the loop with `monitorEventLoopDelay` and reset that histogram on every scrape, so a scrape just
 * before the window starts it and a scrape at its end reads the delay within it. Also reads the relay's
 * acceptance histogram (time from sending to the relay's answer, as the service sees it), since a blocked
 * loop shows up there as well: an answer that arrived waits until the loop reads it.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

/** Event-loop delay (ms) and the relay acceptance mean (ms) over one window. */
export interface LoopWindow {
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  loopMeanMs: number;
  /** Mean time to a relay's acceptance over the window, as the service measured it (NaN: none). */
  relayAcceptMeanMs: number;
  /** The machine's 1-minute load average at the window's end. */
  load1: number;
  /**
   * Where the service's main thread (the event loop) spent the window, as shares of wall time, from
   * /proc/<pid>/task/<pid>/schedstat: on a CPU, runnable but waiting for one (the machine is busy), and the
   * rest off CPU (idle in epoll, or blocked in a syscall such as fsync). NaN when /proc cannot tell.
   */
  mainThread: { onCpu: number; waitingForCpu: number; offCpu: number };
}

/** [on-CPU ns, run-queue wait ns] of a process's main thread. */
function schedstat(pid: number): [number, number] {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return [run ?? NaN, wait ?? NaN];
  } catch {
    return [NaN, NaN];
  }
}

function sample(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+|NaN)$`, "m").exec(text);
  return m === null ? NaN : Number(m[1]);
}

/** Sum of one metric's samples over all label sets. */
function sumOf(text: string, name: string): number {
  let total = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "gm")))
    total += Number(m[1]);
  return total;
}

/** Starts a window: scrapes once (resets the loop histogram) and returns the function that ends it. */
export async function startLoopWindow(baseUrl: string, pid: number): Promise<() => Promise<LoopWindow>> {
  const scrape = async () => (await fetch(`${baseUrl}/metrics`)).text();
  const first = await scrape();
  const sum0 = sumOf(first, "lasertrade_relay_accept_seconds_sum");
  const count0 = sumOf(first, "lasertrade_relay_accept_seconds_count");
  const [run0, wait0] = schedstat(pid);
  const t0 = process.hrtime.bigint();
  return async () => {
    const [run1, wait1] = schedstat(pid);
    const wallNs = Number(process.hrtime.bigint() - t0);
    const onCpu = (run1 - run0) / wallNs;
    const waitingForCpu = (wait1 - wait0) / wallNs;
    const text = await scrape();
    const ms = (name: string) => sample(text, name) * 1000;
    const n = sumOf(text, "lasertrade_relay_accept_seconds_count") - count0;
    return {
      loopP50Ms: ms("nodejs_eventloop_lag_p50_seconds"),
      loopP99Ms: ms("nodejs_eventloop_lag_p99_seconds"),
      loopMaxMs: ms("nodejs_eventloop_lag_max_seconds"),
      loopMeanMs: ms("nodejs_eventloop_lag_mean_seconds"),
      relayAcceptMeanMs:
        n > 0 ? ((sumOf(text, "lasertrade_relay_accept_seconds_sum") - sum0) / n) * 1000 : NaN,
      load1: loadavg()[0]!,
      mainThread: { onCpu, waitingForCpu, offCpu: 1 - onCpu - waitingForCpu },
    };
  };
}

/** One line for a report. */
export function formatLoopWindow(w: LoopWindow): string {
  const f = (v: number) => v.toFixed(1);
  const p = (v: number) => `${(v * 100).toFixed(0)} %`;
  return (
    `event-loop delay p50 ${f(w.loopP50Ms)} / p99 ${f(w.loopP99Ms)} / max ${f(w.loopMaxMs)} / mean ${f(w.loopMeanMs)} ms, ` +
    `relay accept mean ${f(w.relayAcceptMeanMs)} ms (service's view), load average ${w.load1.toFixed(1)}; ` +
    `service main thread: on CPU ${p(w.mainThread.onCpu)}, waiting for a CPU ${p(w.mainThread.waitingForCpu)}, ` +
    `off CPU ${p(w.mainThread.offCpu)}`
  );
}
