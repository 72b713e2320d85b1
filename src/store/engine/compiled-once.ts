/**
 * Kysely queries of the request path compiled once. Building a query and compiling it to SQL costs more CPU
 * than running it for the small reads and writes every trade makes (the API key, the wallet, the activity
 * row, the webhook worker's listing on every event), so each is built and compiled once with marker values
 * in place of its named arguments; a call puts the arguments where the markers were and runs the same SQL
 * (the SQLite statement cache then prepares it once too). The query stays written with Kysely.
 */
import { CompiledQuery, type Compilable, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { QueryRunner } from "./query-runner.js";

/**
 * `build(args)` compiled once; the returned function runs it with new arguments and returns its rows.
 * `build` must use each argument as a plain parameter value (never to choose the query's shape: a null
 * compiled as `is null` would differ), which is checked once: every name has to appear among the parameters.
 * `run` runs the SQL (default: Kysely's driver; a synced write on SQLite passes its group commit); a call
 * given `on` (a transaction) runs it there instead, so a read under a lock is the same compiled query.
 */
export function compiledOnce<P extends Record<string, unknown>, R>(
  db: Kysely<Database>,
  names: readonly (keyof P & string)[],
  build: (args: P) => Compilable<R>,
  run: QueryRunner = <T>(q: CompiledQuery) => db.executeQuery<T>(q),
): (args: P, on?: Kysely<Database>) => Promise<R[]> {
  const query = compiledQuery(names, build);
  return async (args: P, on?: Kysely<Database>): Promise<R[]> => {
    const q = query(args);
    return (on === undefined ? await run<R>(q) : await on.executeQuery<R>(q)).rows;
  };
}

/**
 * `build(args)` compiled once (the check as compiledOnce's); the returned function gives the query with new
 * arguments, for a caller that runs it itself (a synchronous statement on the SQLite connection).
 */
export function compiledQuery<P extends Record<string, unknown>, R>(
  names: readonly (keyof P & string)[],
  build: (args: P) => Compilable<R>,
): (args: P) => CompiledQuery<R> {
  // Distinct objects nothing else can pass: a marker is found among the compiled parameters by identity.
  const markers = new Map<unknown, keyof P & string>(names.map((n) => [{ compiledOnceArgument: n }, n]));
  const compiled = build(Object.fromEntries([...markers].map(([m, n]) => [n, m])) as P).compile();
  const slots = compiled.parameters.map((p) => markers.get(p));
  for (const n of names) {
    if (!slots.includes(n)) throw new Error(`compiledOnce: "${n}" is not a parameter of the query`);
  }
  return (args: P): CompiledQuery<R> => {
    const parameters = compiled.parameters.map((p, j) => {
      const name = slots[j];
      return name === undefined ? p : args[name];
    });
    return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
  };
}
