/**
 * A fixed CPU-bound loop timed in CPU ms: this machine's speed drifts (by 40 % within minutes, seen 26 Nov,
 * sixth session), so a figure measured at one time is only comparable with another at a like speed. Bench
 * scripts print it before and after a measured window; `npx tsx bench/machine-speed.ts` prints it alone.
 */
import { pathToFileURL } from "node:url";

/** CPU ms of a fixed integer loop (about 0.6 s on a fast period of this 2-core machine). */
export function spinMs(): number {
  const c0 = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 300_000_000; i++) x += i % 7;
  const c = process.cpuUsage(c0);
  // Keeps the loop from being optimised away.
  if (x < 0) throw new Error("unreachable");
  return Math.round((c.user + c.system) / 1000);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.stdout.write(`spin ${spinMs()} ms\n`);
