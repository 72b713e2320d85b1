/** The events half of the Kysely store: reading the outbox the triggers write, retention, wake-ups. */
import { sql, type Kysely, type Selectable } from "kysely";
import type { EventRecord, EventStore, EventWakeListener } from "./event-types.js";
import { toExecution } from "../executions/kysely-executions.js";
import type { Database, EventsTable } from "../schema.js";
import type { ExecutionKind, ExecutionStatus, Store } from "../types.js";
import { keyRows, oldestIdOfKey } from "../keys/key-rows.js";
import { walletsWithin } from "../keys/wallet-scope.js";
import { KEYS_CHANNEL } from "./migrations-events.js";

function toEvent(r: Selectable<EventsTable>): EventRecord {
  return {
    // Ids written out, not spread from a helper (key-rows.ts says why).
    id: Number(r.id),
    apiKeyId: Number(r.api_key_id),
    type: r.type,
    executionId: r.execution_id,
    kind: r.kind as ExecutionKind,
    wallet: r.wallet,
    wallets: JSON.parse(r.wallets) as string[],
    signatures: JSON.parse(r.signatures) as string[],
    status: r.status as ExecutionStatus,
    error: r.error === null ? null : (JSON.parse(r.error) as unknown),
    createdAt: r.created_at,
    data: r.data == null ? null : (JSON.parse(r.data) as unknown),
  };
}

/** A set of wake-up listeners; `emit` never throws (a listener's failure is its own). */
export interface WakeBus {
  on(listener: EventWakeListener): () => void;
  emit(apiKeyId: number | undefined): void;
}

/** An in-process wake-up bus. */
export function createWakeBus(): WakeBus {
  const listeners = new Set<EventWakeListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(apiKeyId) {
      for (const l of [...listeners]) {
        try {
          l(apiKeyId);
        } catch {
          // a wake-up is a hint; the listener re-reads the outbox on its next one
        }
      }
    },
  };
}

type ExecutionWrites = Pick<Store, "insertExecution" | "updateExecution" | "settleExecution">;

/** The execution writes, each followed by an in-process wake-up (the event itself was written by a trigger). */
export function wakingExecutionWrites<S extends ExecutionWrites>(writes: S, bus: WakeBus): S {
  return {
    ...writes,
    async insertExecution(e) {
      const r = await writes.insertExecution(e);
      bus.emit(r.apiKeyId);
      return r;
    },
    async updateExecution(id, patch) {
      const r = await writes.updateExecution(id, patch);
      if (r !== undefined && patch.status !== undefined) bus.emit(r.apiKeyId);
      return r;
    },
    async settleExecution(id, owner, patch) {
      const done = await writes.settleExecution(id, owner, patch);
      if (done) bus.emit(undefined);
      return done;
    },
  };
}

/** The key-change hints (issue 29): the bus this process's listeners are on, and how other processes are told. */
export interface KeysHints {
  bus: WakeBus;
  /** Tells the other processes (Redis); unset: PostgreSQL NOTIFY on KEYS_CHANNEL, or nothing with SQLite. */
  publish?: (accountId: number) => void;
}

/** The events methods over an open Kysely instance; `bus` carries this process's and the database's wake-ups. */
export function kyselyEvents(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  bus: WakeBus,
  /** Starts listening to other processes (PostgreSQL); called on the first subscription. */
  startListening?: () => void,
  keys: KeysHints = { bus: createWakeBus() },
): EventStore {
  let listening = false;
  const listen = (): void => {
    if (!listening && startListening !== undefined) {
      listening = true;
      startListening();
    }
  };
  return {
    async listEvents(q) {
      let query = keyRows(db.selectFrom("events").selectAll(), q.apiKeyId).where("id", ">", q.after);
      if (q.types !== undefined && q.types.length > 0) query = query.where("type", "in", [...q.types]);
      if (q.kind !== undefined) query = query.where("kind", "=", q.kind);
      if (q.executionId !== undefined) query = query.where("execution_id", "=", q.executionId);
      // wallets is a JSON array of base58 strings: no LIKE wildcard (% or _) can occur in an address.
      if (q.wallet !== undefined) query = query.where("wallets", "like", `%"${q.wallet}"%`);
      if (q.onlyWallets !== undefined)
        query = query.where(walletsWithin(dialect, "events.wallets", q.onlyWallets));
      const rows = await query.limit(q.limit).execute();
      return rows.map(toEvent);
    },

    async eventBounds(apiKeyId) {
      const seq = await db
        .selectFrom("event_sequences")
        .select("last_id")
        .where("api_key_id", "=", apiKeyId)
        .executeTakeFirst();
      const oldest = await oldestIdOfKey(db, "events", apiKeyId);
      return { oldest: oldest ?? null, last: Number(seq?.last_id ?? 0) };
    },

    async purgeEvents(createdBefore) {
      const r = await db.deleteFrom("events").where("created_at", "<", createdBefore).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async findExecution(apiKeyId, id, onlyWallets) {
      let query = db
        .selectFrom("executions")
        .selectAll()
        .where("id", "=", id)
        .where("api_key_id", "=", apiKeyId);
      if (onlyWallets !== undefined)
        query = query.where(walletsWithin(dialect, "executions.wallets", onlyWallets));
      const row = await query.executeTakeFirst();
      return row === undefined ? undefined : toExecution(row);
    },

    onEventWake(listener) {
      listen();
      return bus.on(listener);
    },

    async publishKeysChanged(accountId) {
      keys.bus.emit(accountId);
      if (keys.publish !== undefined) keys.publish(accountId);
      // The payload names the schema, like the events channel's, so deployments sharing a database ignore each other.
      else if (dialect === "postgres")
        await sql`select pg_notify(${KEYS_CHANNEL}, current_schema() || ':' || ${String(accountId)})`.execute(
          db,
        );
    },

    onKeysChanged(listener) {
      listen();
      return keys.bus.on(listener);
    },
  };
}
