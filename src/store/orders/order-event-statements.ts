/**
 * An order's `order.<what>` event in the account's outbox (the executions' trigger does the same for them), its
 * statements compiled once: the account's next event number (one upsert), the event, and on PostgreSQL the
 * NOTIFY that wakes the event streams of other processes. On PostgreSQL the three are one statement (the upsert
 * and the insert as CTEs, the NOTIFY in its select): one round trip inside the writer's transaction, not three.
 * Every writer of an order event goes through here: a state change, a creation, a fire's claim (the order fire's
 * one-statement claim on PostgreSQL writes the same row in its own CTEs, claim-statements.ts).
 */
import { sql, type Compilable, type Kysely, type RawBuilder, type Transaction } from "kysely";
import { compiledQuery } from "../engine/compiled-once.js";
import { runInTransaction, type ClaimProgram } from "../engine/claim-program.js";
import { EVENTS_CHANNEL, EVENTS_NOTIFY_SETTING } from "../events/migrations-events.js";
import type { Database } from "../schema.js";
import type { OrderRecord } from "./order-types.js";

/** An order event's columns that come from the order (beside its account and number). */
const EVENT_COLUMNS = ["type", "execution_id", "wallet", "wallets", "status", "error", "created_at"] as const;

/** An order event's row as EVENT_COLUMNS name it (a type, not an interface: compiledQuery takes a record). */
type EventRow = {
  type: string;
  execution_id: string;
  wallet: string;
  wallets: string;
  status: string;
  error: string | null;
  created_at: string;
};

/** The order-event statements over `db`. */
export function orderEventStatements(db: Kysely<Database>, dialect: "sqlite" | "postgres") {
  const raw = <T>(r: RawBuilder<T>): Compilable<T> => ({ compile: () => r.compile(db) });
  // SQLite: the account's next number, then the event, inside the writer's transaction.
  const nextEventId = compiledQuery(["accountId"], (a: { accountId: number }) =>
    raw(sql<{ last_id: string | number }>`insert into event_sequences (api_key_id, last_id)
      values (${a.accountId}, 1) on conflict (api_key_id) do update set last_id = last_id + 1 returning last_id`),
  );
  const insertEvent = compiledQuery(
    ["api_key_id", "id", ...EVENT_COLUMNS],
    (a: EventRow & { api_key_id: number; id: number }) =>
      db.insertInto("events").values({ ...a, kind: "order", signatures: "[]" }),
  );
  // PostgreSQL: both and the NOTIFY in one statement.
  const pgEvent = compiledQuery(["accountId", ...EVENT_COLUMNS], (a: EventRow & { accountId: number }) =>
    raw(sql`with s as (insert into event_sequences (api_key_id, last_id) values (${a.accountId}, 1)
        on conflict (api_key_id) do update set last_id = event_sequences.last_id + 1 returning last_id),
      v as (insert into events (api_key_id, id, type, kind, execution_id, wallet, wallets, signatures, status,
        error, created_at) select cast(${a.accountId} as integer), s.last_id, ${a.type}, 'order',
        ${a.execution_id}, ${a.wallet}, ${a.wallets}, '[]', ${a.status}, ${a.error}, ${a.created_at} from s)
      select case when current_setting(${EVENTS_NOTIFY_SETTING}, true) is distinct from 'off'
        then pg_notify(${EVENTS_CHANNEL}, current_schema() || ':' || ${a.accountId}) end`),
  );

  /** The event of `o` (its state, error and time as given), as statements of a program. */
  function* program(o: OrderRecord, type: string): ClaimProgram<void> {
    const row: EventRow = {
      type,
      execution_id: o.id,
      wallet: o.wallet,
      wallets: JSON.stringify([o.wallet]),
      status: o.state,
      error: o.error === null ? null : JSON.stringify(o.error),
      created_at: o.updatedAt,
    };
    if (dialect === "postgres") {
      yield pgEvent({ accountId: o.accountId, ...row });
      return;
    }
    const [seq] = (yield nextEventId({ accountId: o.accountId })) as { last_id: string | number }[];
    yield insertEvent({ api_key_id: o.accountId, id: Number(seq!.last_id), ...row });
  }

  return {
    program,
    /** The event of `o` inside `trx`. */
    append: (trx: Transaction<Database>, o: OrderRecord, type: string): Promise<void> =>
      runInTransaction(trx, program(o, type)),
  };
}

/** What writes an order's event inside a transaction. */
export type OrderEvents = ReturnType<typeof orderEventStatements>;
