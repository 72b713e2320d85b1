/* global process */
/**
 * Preload for the service (`node --import ./bench/heap-sampling.mjs dist/main.js`, `profile-trade.ts
 * --heap-sampling`): V8's sampling heap profiler over an in-process inspector session, garbage included
 * (`includeObjectsCollectedByMinorGC/MajorGC`, so the profile is what was allocated, not what survived).
 * SIGTTIN starts sampling; SIGTTOU stops it and writes the profile as JSON to `HEAP_SAMPLING_FILE`.
 * Bench tooling only: the service never loads it on its own.
 */
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const file = process.env.HEAP_SAMPLING_FILE;
const interval = Number(process.env.HEAP_SAMPLING_INTERVAL ?? 4096);
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
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    )
    .catch((err) => process.stderr.write(`heap sampling: ${err}\n`));
});

process.on("SIGTTOU", () => {
  void post("HeapProfiler.stopSampling")
    .then(({ profile }) => writeFileSync(file, JSON.stringify(profile)))
    .catch((err) => process.stderr.write(`heap sampling: ${err}\n`));
});
