/**
 * `npm run soak`: the fault and load suite of issue 9 at full size; prints each scenario's figures as
 * Markdown (the tables of docs/reliability.md) and exits 1 when a goal was not met.
 *
 *   npm run soak                      # all eight scenarios, full size ((e)-(g): issue 20's events; (h): orders, PostgreSQL only)
 *   npm run soak -- --short           # the small sizes of the npm test form
 *   npm run soak -- --only a,d        # some scenarios
 *   npm run soak -- --processes 2     # two service processes for (a) and (b)
 *   npm run soak -- --json out.json   # also write the reports as JSON
 *   npm run soak -- --rpc-timeout-ms 20000   # RPC_TIMEOUT_MS of the service processes (default 5000)
 * The database is a fresh PostgreSQL database when TEST_DATABASE_URL is set, else a SQLite file;
 * REDIS_URL-style TEST_REDIS_URL is passed on when set.
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { toMarkdown, unmet } from "./figures.js";
import { FULL, runSoak, SCENARIOS, SHORT, type ScenarioId } from "./suite.js";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const only = argValue("only")
  ?.split(",")
  .map((s) => s.trim())
  .filter((s): s is ScenarioId => (SCENARIOS as readonly string[]).includes(s));
const database = process.env.TEST_DATABASE_URL ? "postgres" : "sqlite";
const redisUrl = process.env.TEST_REDIS_URL || undefined;
const started = new Date();
const t0 = performance.now();
const reports = await runSoak({
  sizes: process.argv.includes("--short") ? SHORT : FULL,
  ...(only !== undefined ? { only } : {}),
  processes: Number(argValue("processes") ?? 1),
  database,
  ...(redisUrl !== undefined ? { redisUrl } : {}),
  ...(argValue("rpc-timeout-ms") !== undefined
    ? { serviceEnv: { RPC_TIMEOUT_MS: argValue("rpc-timeout-ms")! } }
    : {}),
  log: (line) => process.stderr.write(`${line}\n`),
  onReport: (r) => process.stderr.write(`${toMarkdown([r])}\n`),
});
const seconds = (performance.now() - t0) / 1000;
console.log(
  `soak run of ${started.toISOString()}: ${seconds.toFixed(0)} s, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}, database ${database}${redisUrl ? " + Redis" : ""}\n`,
);
console.log(toMarkdown(reports));
const missed = unmet(reports);
console.log(
  missed.length === 0
    ? "every goal met"
    : `goals not met:\n${missed.map((m) => `- ${m.scenario}: ${m.figure.name} = ${m.figure.value} (goal ${m.figure.goal})`).join("\n")}`,
);
const jsonOut = argValue("json");
if (jsonOut !== undefined)
  writeFileSync(jsonOut, JSON.stringify({ started, seconds, database, reports }, null, 2));
process.exit(missed.length === 0 ? 0 : 1);
