/* global process, setInterval */
/**
 * Preload for the service (`node --import ./bench/pg-query-tally.mjs dist/main.js`, `profile-trade.ts
 * --pg-tally`): counts the queries the process sends through `pg` (each `Client.query` is one round trip),
 * by statement (its name, or its first words), how many of them were parsed on the server (unnamed, or a
 * named statement this connection had not prepared yet), and the NOTIFY messages received. The tally is
 * written as JSON to `PG_TALLY_FILE` every 500 ms, so the bench reads it before and after its window.
 * Bench tooling only: the service never loads it on its own.
 */
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";

const file = process.env.PG_TALLY_FILE;
// The same module instance the service imports (ESM imports of CommonJS share require's cache).
const pg = createRequire(import.meta.url)("pg");
const tally = { queries: 0, parsed: 0, notifications: 0, byStatement: {} };

const label = (text, name) => {
  if (name !== undefined) return `name:${name}`;
  return String(text).replace(/\s+/g, " ").slice(0, 90);
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === "string" ? config : config?.text;
  const name = typeof config === "object" && config !== null ? config.name : undefined;
  if (text !== undefined) {
    tally.queries += 1;
    const parsedHere = name === undefined || this.connection?.parsedStatements?.[name] === undefined;
    if (parsedHere) tally.parsed += 1;
    const k = label(text, name);
    tally.byStatement[k] = (tally.byStatement[k] ?? 0) + 1;
  }
  return query.call(this, config, values, callback);
};

const notification = pg.Client.prototype._handleNotification;
pg.Client.prototype._handleNotification = function (msg) {
  tally.notifications += 1;
  return notification.call(this, msg);
};

if (file !== undefined) {
  setInterval(() => writeFileSync(file, JSON.stringify(tally)), 500).unref();
}
