/**
 * `npm run fuzz`: the full fuzz run (FUZZ_RUNS cases, default 100 000, seed FUZZ_SEED, default 9005) against
 * the localnet-backed app; prints the figures as a table and as JSON (FUZZ_JSON=<file> writes the JSON too).
 * FUZZ_DATABASE_URL selects the database (default SQLite in memory). Exit code 1 when a property was violated or a secret was found in the logs.
 */
import { writeFileSync } from "node:fs";
import { dropSchema, freshSchemaName } from "../helpers/pg.js";
import { startFuzzFixture } from "./fixture.js";
import { runFuzz, type FuzzReport } from "./run.js";

const runs = Number(process.env.FUZZ_RUNS ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? 9005);

/** The figures as a plain-text table. */
function print(r: FuzzReport): void {
  const out = process.stdout;
  out.write(`\nfuzz: ${r.runs} cases, seed ${r.seed}, ${(r.durationMs / 1000).toFixed(1)} s\n`);
  out.write("route                                      cases   2xx   4xx   5xx  (502 upstream)\n");
  for (const [route, t] of Object.entries(r.byRoute))
    out.write(
      `${route.padEnd(40)} ${String(t.cases).padStart(7)} ${String(t.s2xx).padStart(5)} ${String(t.s4xx).padStart(5)} ${String(t.s5xx).padStart(5)}  (${t.upstream502})\n`,
    );
  const t = r.total;
  out.write(
    `${"total".padEnd(40)} ${String(t.cases).padStart(7)} ${String(t.s2xx).padStart(5)} ${String(t.s4xx).padStart(5)} ${String(t.s5xx).padStart(5)}  (${t.upstream502})\n`,
  );
  out.write(`families: ${JSON.stringify(r.byFamily)}\n`);
  out.write(`502 causes: ${JSON.stringify(r.upstream502Causes)}\n`);
  out.write(`4xx without detail: ${r.missingDetail}; violations: ${r.violations.length}\n`);
  out.write(
    `log lines scanned: ${r.logLinesScanned}; secret forms registered: ${r.secretFormsRegistered}; secrets found: ${r.secretsFound.length}\n`,
  );
  for (const v of r.violations.slice(0, 20)) out.write(`  ${JSON.stringify(v)}\n`);
}

// FUZZ_DATABASE_URL=postgres://… runs against PostgreSQL, in a schema of its own dropped afterwards.
const databaseUrl = process.env.FUZZ_DATABASE_URL || undefined;
const pgSchema = databaseUrl?.startsWith("postgres") === true ? freshSchemaName("fuzz") : undefined;
const fixture = await startFuzzFixture({
  ...(databaseUrl !== undefined ? { databaseUrl } : {}),
  ...(pgSchema !== undefined ? { pgSchema } : {}),
});
const t0 = Date.now();
try {
  const report = await runFuzz(fixture, {
    runs,
    seed,
    onProgress: (n) => process.stderr.write(`fuzz: ${n} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`),
  });
  print(report);
  if (process.env.FUZZ_LOG !== undefined) writeFileSync(process.env.FUZZ_LOG, fixture.logLines.join(""));
  if (process.env.FUZZ_JSON !== undefined)
    writeFileSync(process.env.FUZZ_JSON, JSON.stringify(report, null, 2));
  process.exitCode = report.violations.length > 0 || report.secretsFound.length > 0 ? 1 : 0;
} finally {
  await fixture.close();
  if (databaseUrl !== undefined && pgSchema !== undefined) await dropSchema(databaseUrl, pgSchema);
}
