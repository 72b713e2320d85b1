/**
 * The two writes every execution makes on the request path (its pending insert, its outcome update) as
 * prepared statements of the drivers themselves: better-sqlite3's `prepare` (cached, see sqlite-statements.ts)
 * and pg's named statements (pg-execution-writer.ts). Building and compiling the same two queries through Kysely for every trade
 * cost more CPU than running them (issue 18's profile); the rest of the store keeps Kysely.
 *
 * The update sets only the columns a patch names: each patchable column is `case when <flag> then <value>
 * else <column> end`, so one statement serves every patch.
 */
import { CompiledQuery, type Insertable, type Kysely } from "kysely";
import type { Database, ExecutionsTable } from "../schema.js";
import type { QueryRunner } from "../engine/query-runner.js";
import type { ExecutionPatch, NewExecution } from "../types.js";

/** A row of `executions` as the drivers return it. */
export type ExecutionRow = { [K in keyof ExecutionsTable]: unknown };

/** The request-path writes of executions. */
export interface ExecutionWriter {
  insert(e: NewExecution, now: string): Promise<ExecutionRow>;
  update(id: string, patch: ExecutionPatch, now: string): Promise<ExecutionRow | undefined>;
}

export const INSERT_COLUMNS = [
  "id",
  "api_key_id",
  "kind",
  "wallet",
  "wallets",
  "signatures",
  "bundle_id",
  "status",
  "confirmation_status",
  "request",
  "response",
  "error",
  "timings",
  "last_valid_block_height",
  "idempotency_key",
  "compute_unit_price_micro_lamports",
  "created_at",
  "updated_at",
] as const;

export const PATCH_COLUMNS = [
  ["signatures", (p: ExecutionPatch) => (p.signatures === undefined ? undefined : toJson(p.signatures))],
  ["wallets", (p: ExecutionPatch) => (p.wallets === undefined ? undefined : toJson(p.wallets))],
  ["bundle_id", (p: ExecutionPatch) => p.bundleId],
  ["status", (p: ExecutionPatch) => p.status],
  ["confirmation_status", (p: ExecutionPatch) => p.confirmationStatus],
  ["response", (p: ExecutionPatch) => (p.response === undefined ? undefined : toJson(p.response))],
  ["error", (p: ExecutionPatch) => (p.error === undefined ? undefined : toJson(p.error))],
  ["timings", (p: ExecutionPatch) => (p.timings === undefined ? undefined : toJson(p.timings))],
] as const;

const bigintAsText = (_k: string, x: unknown): unknown => (typeof x === "bigint" ? x.toString() : x);

/** JSON text that tolerates bigint (stored as a decimal string), as the Kysely half writes it. */
function toJson(v: unknown): string {
  // Without a replacer first: the request path's values hold no bigint, and a replacer makes JSON.stringify
  // call back into JavaScript for every member (issue 18). A bigint makes it throw a TypeError; then the
  // replacer's text, the same as it would have been (a TypeError it raises too, such as a cycle, is thrown again).
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(v, bigintAsText);
  }
}

function toJsonOrNull(v: unknown): string | null {
  return v === undefined || v === null ? null : toJson(v);
}

/** PostgreSQL's type of each inserted column: the batch insert and the claim cast their parameters to them. */
export const INSERT_TYPES: Record<(typeof INSERT_COLUMNS)[number], string> = {
  id: "text",
  api_key_id: "integer",
  kind: "text",
  wallet: "text",
  wallets: "text",
  signatures: "text",
  bundle_id: "text",
  status: "text",
  confirmation_status: "text",
  request: "text",
  response: "text",
  error: "text",
  timings: "text",
  last_valid_block_height: "bigint",
  idempotency_key: "text",
  compute_unit_price_micro_lamports: "bigint",
  created_at: "text",
  updated_at: "text",
};

/** An execution's row as the insert writes it, one value per INSERT_COLUMNS column. */
export type ExecutionValues = Pick<Required<Insertable<ExecutionsTable>>, (typeof INSERT_COLUMNS)[number]>;

/** The column values an insert writes for `e` at `now` (the Kysely insert, the claim commit, the group commit). */
export function executionValues(e: NewExecution, now: string): ExecutionValues {
  return {
    id: e.id,
    api_key_id: e.apiKeyId,
    kind: e.kind,
    wallet: e.wallet,
    wallets: toJson(e.wallets),
    signatures: toJson(e.signatures),
    bundle_id: e.bundleId,
    status: e.status,
    confirmation_status: e.confirmationStatus,
    request: toJson(e.request ?? null),
    response: toJsonOrNull(e.response),
    error: toJsonOrNull(e.error),
    timings: toJsonOrNull(e.timings),
    last_valid_block_height: e.lastValidBlockHeight ?? null,
    idempotency_key: e.idempotencyKey ?? null,
    // Decimal text: both engines store it exactly in their bigint column.
    compute_unit_price_micro_lamports:
      e.computeUnitPriceMicroLamports == null ? null : e.computeUnitPriceMicroLamports.toString(),
    created_at: now,
    updated_at: now,
  };
}

/** The insert's parameters, in INSERT_COLUMNS order. */
export function insertParams(e: NewExecution, now: string): unknown[] {
  const v = executionValues(e, now);
  return INSERT_COLUMNS.map((c) => v[c]);
}

/** The update's parameters: updated_at, then (flag, value) per patchable column, then the id. */
export function updateParams(
  id: string,
  patch: ExecutionPatch,
  now: string,
  flag: (set: boolean) => unknown,
): unknown[] {
  const params: unknown[] = [now];
  for (const [, value] of PATCH_COLUMNS) {
    const v = value(patch);
    params.push(flag(v !== undefined), v ?? null);
  }
  params.push(id);
  return params;
}

/** A quoted SQL identifier (the column names are fixed, none needs escaping). */
export const quoted = (c: string): string => `"${c}"`;

/** The single-row insert, `param(i)` naming the i-th parameter (1-based); `returning *` unless told not to. */
export function insertSql(param: (i: number) => string, returning = true): string {
  return (
    `insert into "executions" (${INSERT_COLUMNS.map(quoted).join(", ")}) ` +
    `values (${INSERT_COLUMNS.map((_, i) => param(i + 1)).join(", ")})${returning ? " returning *" : ""}`
  );
}

/**
 * The row SQLite stores for an insert of `params` (insertParams' order): the values bound, and NULL in the
 * columns the insert leaves out (none has a default). What `returning *` would read back: every value bound is
 * a string, a number or null, and each string goes to a TEXT column and each number to an INTEGER one, whose
 * affinity keeps it as it is; no trigger changes the row. Built here because the `returning *` cost about
 * 11 µs per insert (SQLite collects the row, better-sqlite3 makes a 21-key object of it; issue 18). On
 * PostgreSQL (the fire's one-statement claim) it is the row read back but for its bigint columns, which pg
 * reads as strings and toExecution reads either way.
 */
export function insertedRow(params: readonly unknown[]): ExecutionRow {
  const row: Record<string, unknown> = { reconcile_owner: null, reconcile_until_ms: null, delinked_at: null };
  INSERT_COLUMNS.forEach((c, i) => {
    row[c] = params[i];
  });
  return row as ExecutionRow;
}

// Starts with `update "executions" set` on purpose: SQLite's relaxed-sync rule matches outcome writes by it.
/** The one-row update of any patch (see the file comment). */
export function updateSql(param: (i: number) => string, asFlag: (p: string) => string): string {
  const sets = PATCH_COLUMNS.map(
    ([c], i) =>
      `${quoted(c)} = case when ${asFlag(param(2 + 2 * i))} then ${param(3 + 2 * i)} else ${quoted(c)} end`,
  );
  const idParam = param(2 + 2 * PATCH_COLUMNS.length);
  return `update "executions" set "updated_at" = ${param(1)}, ${sets.join(", ")} where "id" = ${idParam} returning *`;
}

/**
 * The writer over SQLite: fixed SQL handed to Kysely's driver as is (no query building or compiling), so it
 * still takes the one connection's lock (never lands inside another request's open transaction) and its
 * statement cache (prepared once; outcome updates keep their sync rule). `run` runs both (the group commit of
 * sqlite-group-commit.ts; default Kysely's driver). The insert returns the row it bound (insertedRow).
 */
export function sqliteExecutionWriter(
  db: Kysely<Database>,
  run: QueryRunner = <T>(q: CompiledQuery) => db.executeQuery<T>(q),
): ExecutionWriter {
  const insert = insertSql(() => "?", false);
  const update = updateSql(
    () => "?",
    (p) => `${p} = 1`,
  );
  return {
    async insert(e, now) {
      const params = insertParams(e, now);
      await run(CompiledQuery.raw(insert, params));
      return insertedRow(params);
    },
    async update(id, patch, now) {
      const params = updateParams(id, patch, now, (set) => (set ? 1 : 0));
      return (await run<ExecutionRow>(CompiledQuery.raw(update, params))).rows[0];
    },
  };
}
