/* global process, setTimeout */
/**
 * Preload for the service (`node --import ./bench/heap-sampling.mjs dist/main.js`, `profile-trade.ts
 * --heap-sampling`): V8's sampling heap profiler over an in-process inspector session, garbage included
 * (`includeObjectsCollectedByMinorGC/MajorGC`, so the profile is what was allocated, not what survived).
 * SIGTTIN starts sampling; SIGTTOU stops it and writes the profile as JSON to `HEAP_SAMPLING_FILE`.
 * With `HEAP_SAMPLING_LIVE_MS` set (`profile-trade.ts --heap-sampling-live N`), garbage is left out and the
 * profile is taken N ms after SIGTTIN, while the load still runs, after a forced scavenge (needs `--expose-gc`):
 * what was allocated since SIGTTIN and survives a scavenge (the trades in flight, what was promoted and has not
 * met a major GC yet, caches that grew). Bench tooling only: the service never loads it on its own.
 */
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const file = process.env.HEAP_SAMPLING_FILE;
const interval = Number(process.env.HEAP_SAMPLING_INTERVAL ?? 4096);
const liveMs = Number(process.env.HEAP_SAMPLING_LIVE_MS ?? 0);
const session = new Session();
session.connect();

const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  );

process.on("SIGTTIN", () => {
  void post("HeapProfiler.enable")
    .then(() =>
      post("HeapProfiler.startSampling", {
        samplingInterval: interval,
        includeObjectsCollectedByMajorGC: liveMs === 0,
        includeObjectsCollectedByMinorGC: liveMs === 0,
      }),
    )
    .then(() => {
      if (liveMs > 0) setTimeout(stop, liveMs);
    })
    .catch((err) => process.stderr.write(`heap sampling: ${err}\n`));
});

function stop() {
  if (liveMs > 0) globalThis.gc?.({ type: "minor", execution: "sync" });
  void post("HeapProfiler.stopSampling")
    .then(({ profile }) => writeFileSync(file, JSON.stringify(profile)))
    .catch((err) => process.stderr.write(`heap sampling: ${err}\n`));
}

process.on("SIGTTOU", () => {
  if (liveMs === 0) stop();
});
