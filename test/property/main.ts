/**
 * `npm run fuzz:openapi`: the long run of the requests generated from the OpenAPI document (test/property/run.ts)
 * against the localnet-backed app: PROPERTY_RUNS allowed and refused requests per route (default 50), seed
 * PROPERTY_SEED (default 3030). Prints the figures and every finding; exit code 1 on a finding not in KNOWN_GAPS.
 */
import { startE2e } from "../helpers/e2e.js";
import { gapKey, runProperties } from "./run.js";

const runs = Number(process.env.PROPERTY_RUNS ?? 50);
const seed = Number(process.env.PROPERTY_SEED ?? 3030);
// The warm venue state on, as in the in-suite run: the order routes parse their bodies and queries.
const e2e = await startE2e({
  warm: true,
  env: {
    RATE_LIMIT_READS: "1000000",
    RATE_LIMIT_CHECKS: "1000000",
    RATE_LIMIT_EXECUTIONS: "1000000",
    RATE_LIMIT_REFUSALS: "1000000",
  },
});
const t0 = Date.now();
try {
  const { apiKey } = await e2e.setup();
  const report = await runProperties(e2e.app, apiKey, {
    runs,
    seed,
    onRequest: (n) => {
      if (n % 500 === 0)
        process.stderr.write(`fuzz:openapi: ${n} requests, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    },
  });
  const out = process.stdout;
  out.write(
    `\nfuzz:openapi: ${report.requests} requests over ${report.routes} routes, seed ${seed}, ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  out.write(`statuses: ${JSON.stringify(report.byStatus)}\n`);
  const count = (fs: typeof report.known) => {
    const m = new Map<string, number>();
    for (const f of fs) m.set(gapKey(f), (m.get(gapKey(f)) ?? 0) + 1);
    return [...m.entries()].sort();
  };
  out.write(`known gaps seen (${report.known.length}):\n`);
  for (const [k, n] of count(report.known)) out.write(`  ${n}× ${k}\n`);
  out.write(`new findings (${report.findings.length}):\n`);
  for (const f of report.findings.slice(0, 50)) out.write(`  ${JSON.stringify(f)}\n`);
  process.exitCode = report.findings.length > 0 ? 1 : 0;
} finally {
  await e2e.close();
}
