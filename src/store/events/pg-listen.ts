/**
 * PostgreSQL LISTEN on the events channel, feeding a wake-up bus. Notifications are hints: one lost while the
 * connection was down is made up by a wake-up of everyone on reconnect, and readers re-read the outbox.
 */
import pg from "pg";
import { EVENTS_CHANNEL, KEYS_CHANNEL } from "./migrations-events.js";
import type { WakeBus } from "./kysely-events.js";

const RECONNECT_MS = 1_000;

/** Options of `startPgListener`. */
export interface PgListenerOptions {
  connectionString: string;
  /** The schema this store's tables live in; notifications of other schemas are ignored. */
  schema: string;
  /** Extra client options (the search_path of a test schema). */
  clientOptions?: string;
  /** Issue 29: where key-change hints (KEYS_CHANNEL) go; unset: that channel is not listened to. */
  keysBus?: WakeBus;
}

/** Listens until the returned stop function is called; reconnects after a lost connection. */
export function startPgListener(bus: WakeBus, o: PgListenerOptions): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let connectedOnce = false;

  const onNotification = (msg: pg.Notification): void => {
    const [schema, key] = (msg.payload ?? "").split(":");
    if (schema !== o.schema) return;
    const apiKeyId = Number(key);
    const target = msg.channel === KEYS_CHANNEL ? o.keysBus : bus;
    target?.emit(Number.isSafeInteger(apiKeyId) ? apiKeyId : undefined);
  };

  const retry = (): void => {
    if (stopped || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, RECONNECT_MS);
    timer.unref();
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: o.connectionString,
      ...(o.clientOptions !== undefined ? { options: o.clientOptions } : {}),
    });
    client = c;
    c.on("error", () => {
      void c.end().catch(() => {});
      if (client === c) client = undefined;
      retry();
    });
    c.on("notification", onNotification);
    try {
      await c.connect();
      await c.query(`listen ${EVENTS_CHANNEL}`);
      if (o.keysBus !== undefined) await c.query(`listen ${KEYS_CHANNEL}`);
      if (stopped) {
        await c.end();
        return;
      }
      // Anything written while we were not listening is only in the outbox: everyone re-reads.
      if (connectedOnce) {
        bus.emit(undefined);
        o.keysBus?.emit(undefined);
      }
      connectedOnce = true;
    } catch {
      void c.end().catch(() => {});
      if (client === c) client = undefined;
      retry();
    }
  };

  void connect();
  return async () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    const c = client;
    client = undefined;
    if (c !== undefined) await c.end().catch(() => {});
  };
}
