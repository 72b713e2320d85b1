/**
 * The request path's execution writes on PostgreSQL: pg named statements (prepared once per connection by the
 * driver) and, with group commit on, the batched forms of the same insert and update (pg-group-commit.ts):
 * the rows of several requests of one key in one statement, one array per column (`unnest`), so the key's
 * `event_sequences` lock is taken and its WAL flush waited for once per batch instead of once per request.
 */
import type pg from "pg";
import {
  INSERT_COLUMNS,
  INSERT_TYPES,
  PATCH_COLUMNS,
  insertParams,
  insertSql,
  quoted,
  updateParams,
  updateSql,
  type ExecutionRow,
  type ExecutionWriter,
} from "./execution-statements.js";
import { keyedBatcher } from "./pg-group-commit.js";
import { pgPrepared } from "../engine/pg-prepared.js";
import {
  OPEN_EXECUTION_STATUSES,
  type ExecutionPatch,
  type ExecutionStatus,
  type NewExecution,
} from "../types.js";

// The same for the patchable columns (all text: JSON, statuses, ids).
const PATCH_TYPES: Record<(typeof PATCH_COLUMNS)[number][0], string> = {
  signatures: "text",
  wallets: "text",
  bundle_id: "text",
  status: "text",
  confirmation_status: "text",
  response: "text",
  error: "text",
  timings: "text",
};

/** Any number of inserts in one statement, rows in array order (the events trigger numbers them so). */
function insertManySql(): string {
  const arrays = INSERT_COLUMNS.map((c, i) => `$${i + 1}::${INSERT_TYPES[c]}[]`);
  return (
    `insert into "executions" (${INSERT_COLUMNS.map(quoted).join(", ")}) ` +
    `select * from unnest(${arrays.join(", ")}) returning *`
  );
}

/**
 * Any number of updates (of distinct executions) in one statement: the one-row update's parameters in arrays,
 * in `updateParams`' order (`updated_at`, a flag and a value per patchable column, `id`), joined to the rows by id.
 */
export function updateManySql(): string {
  const names = ["updated_at", ...PATCH_COLUMNS.flatMap(([c]) => [`set_${c}`, `new_${c}`]), "id"];
  const types = ["text", ...PATCH_COLUMNS.flatMap(([c]) => ["boolean", PATCH_TYPES[c]]), "text"];
  const sets = PATCH_COLUMNS.map(
    ([c]) => `${quoted(c)} = case when p.set_${c} then p.new_${c} else e.${quoted(c)} end`,
  );
  return (
    `update "executions" as e set "updated_at" = p.updated_at, ${sets.join(", ")} ` +
    `from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(", ")}) as p(${names.join(", ")}) ` +
    `where e."id" = p.id returning e.*`
  );
}

/** Rows of parameters transposed to one array per column. */
function columnsOf(rows: unknown[][], width: number): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) row.forEach((v, i) => columns[i]!.push(v));
  return columns;
}

type Insert = { e: NewExecution; now: string };
type Update = { id: string; patch: ExecutionPatch; now: string; key: number };

// Executions inserted here whose updates may join their key's batch; the oldest are forgotten past this many
// (an update of a forgotten one runs alone, which is only slower).
const KEYS_REMEMBERED = 4096;
const OPEN: readonly ExecutionStatus[] = OPEN_EXECUTION_STATUSES;

/**
 * The writer over a pg pool. `outcomes`: the pool the updates go to (pg-relaxed-writes.ts: commits without
 * waiting for the flush); default `pool`. `group`: concurrent writes of one key share a statement and commit.
 */
export function pgExecutionWriter(
  pool: Pick<pg.Pool, "query">,
  outcomes: Pick<pg.Pool, "query"> = pool,
  group = false,
): ExecutionWriter {
  const insert = insertSql((i) => `$${i}`);
  const update = updateSql(
    (i) => `$${i}`,
    (p) => `${p}::boolean`,
  );
  // Named statements that survive another process's migration (pg-prepared.ts): they return whole rows, whose
  // shape a new column changes under a prepared plan.
  const writes = pgPrepared(pool, "lasertrade_x");
  const outcomeWrites = pgPrepared(outcomes, "lasertrade_u");
  const insertOne = async ({ e, now }: Insert): Promise<ExecutionRow> => {
    const r = await writes(insert, insertParams(e, now), "lasertrade_execution_insert");
    return r.rows[0] as ExecutionRow;
  };
  const updateOne = async ({ id, patch, now }: Omit<Update, "key">): Promise<ExecutionRow | undefined> => {
    const r = await outcomeWrites(
      update,
      updateParams(id, patch, now, (s) => s),
      "lasertrade_execution_update",
    );
    return r.rows[0] as ExecutionRow | undefined;
  };
  if (!group)
    return {
      insert: (e, now) => insertOne({ e, now }),
      update: (id, p, now) => updateOne({ id, patch: p, now }),
    };

  const insertMany = insertManySql();
  const inserts = keyedBatcher<Insert, ExecutionRow>({
    groupOf: (w) => w.e.apiKeyId,
    one: insertOne,
    async many(items) {
      const r = await writes(
        insertMany,
        columnsOf(
          items.map(({ e, now }) => insertParams(e, now)),
          INSERT_COLUMNS.length,
        ),
        "lasertrade_execution_insert_many",
      );
      const byId = new Map((r.rows as ExecutionRow[]).map((row) => [row.id, row]));
      return items.map(({ e }) => byId.get(e.id)!);
    },
  });

  const updateMany = updateManySql();
  const updates = keyedBatcher<Update, ExecutionRow | undefined>({
    groupOf: (u) => u.key,
    one: updateOne,
    async many(items) {
      // One row joined twice would be updated once: such a batch runs one update at a time, in order.
      if (new Set(items.map((u) => u.id)).size < items.length) throw new Error("one execution twice");
      const params = items.map(({ id, patch, now }) => updateParams(id, patch, now, (s) => s));
      const r = await outcomeWrites(
        updateMany,
        columnsOf(params, params[0]!.length),
        "lasertrade_execution_update_many",
      );
      const byId = new Map((r.rows as ExecutionRow[]).map((row) => [row.id, row]));
      return items.map((u) => byId.get(u.id));
    },
  });

  // Execution id → its key, for the update's batch (an update names the execution only).
  const keyOf = new Map<string, number>();
  return {
    async insert(e, now) {
      const row = await inserts({ e, now });
      keyOf.set(e.id, e.apiKeyId);
      if (keyOf.size > KEYS_REMEMBERED) keyOf.delete(keyOf.keys().next().value!);
      return row;
    },
    update(id, patch, now) {
      const key = keyOf.get(id);
      if (key === undefined) return updateOne({ id, patch, now });
      // A settled execution takes no more request-path updates.
      if (patch.status !== undefined && !OPEN.includes(patch.status)) keyOf.delete(id);
      return updates({ id, patch, now, key });
    },
  };
}
