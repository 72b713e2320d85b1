/* global process, performance */
/**
 * Preload for the service (`node --import ./bench/lane-trace.mjs dist/main.js`, `single-lane.ts --trace`): for
 * every POST /v1/trades/execute it notes when the request began, when each SQLite statement of it began and
 * ended (the API key and wallet lookups, the execution's insert and update, the activity row), when its first
 * outgoing HTTP request (the relay send) began and ended, and when the response was finished; one JSON line
 * per trade, appended to `LANE_TRACE_FILE`. Only meaningful with one trade in flight at a time (single lane):
 * it charges whatever the process does meanwhile to the trade. Bench tooling only: the service never loads it.
 */
import dc from "node:diagnostics_channel";
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const file = process.env.LANE_TRACE_FILE;
const TRADE_PATH = "/v1/trades/execute";
/** The statements a trade runs, by the start of their SQL. */
const STATEMENTS = [
  ["key", /^select "k"\./],
  ["wallet", /^select \* from "wallets"/],
  ["insert", /^insert into "executions"/],
  ["update", /^update "executions"/],
  ["activity", /^insert into "activity_log"/],
];

let trade = null;
const now = () => performance.now();

dc.subscribe("http.server.request.start", ({ request }) => {
  if (request.method === "POST" && request.url === TRADE_PATH) trade = { start: now(), marks: {} };
});
dc.subscribe("http.server.response.finish", ({ request }) => {
  if (trade === null || request.url !== TRADE_PATH) return;
  const t = trade;
  trade = null;
  const rel = (v) => Math.round((v - t.start) * 1000) / 1000;
  const marks = Object.fromEntries(Object.entries(t.marks).map(([k, v]) => [k, rel(v)]));
  if (file !== undefined) appendFileSync(file, `${JSON.stringify({ ...marks, finish: rel(now()) })}\n`);
});
dc.subscribe("http.client.request.start", () => {
  if (trade !== null && trade.marks["relay.start"] === undefined) trade.marks["relay.start"] = now();
});
dc.subscribe("http.client.response.finish", () => {
  if (trade !== null && trade.marks["relay.end"] === undefined) trade.marks["relay.end"] = now();
});

// The same module instance the service imports (ESM imports of CommonJS share require's cache).
const Database = createRequire(import.meta.url)("better-sqlite3");
const probe = new Database(":memory:");
const Statement = probe.prepare("select 1").constructor;
probe.close();
for (const method of ["run", "all", "get"]) {
  const original = Statement.prototype[method];
  Statement.prototype[method] = function (...args) {
    if (trade === null) return original.apply(this, args);
    const kind = STATEMENTS.find(([, re]) => re.test(this.source))?.[0];
    const begun = now();
    try {
      return original.apply(this, args);
    } finally {
      if (kind !== undefined && trade !== null && trade.marks[`${kind}.start`] === undefined) {
        trade.marks[`${kind}.start`] = begun;
        trade.marks[`${kind}.end`] = now();
      }
    }
  };
}
