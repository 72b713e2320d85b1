/**
 * Redis pub/sub as the cross-process wake-up (REDIS_URL, issue 20): each process publishes a wake-up after its
 * own execution writes and subscribes to everyone else's. Like PostgreSQL's NOTIFY these are hints only — the
 * outbox is the truth and readers re-read it, so a notification lost while Redis is away delays an event (until
 * the reconnect's wake-up of everyone, or the readers' periodic re-read) but never drops it.
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { WakeBus } from "./kysely-events.js";

/** The pub/sub channel; messages carry a namespace, so deployments sharing one Redis ignore each other. */
export const REDIS_EVENTS_CHANNEL = "lasertrade:events";

/**
 * One message: namespace, account (`null` = any account may have news) and the publishing process. `topic`
 * "keys" (issue 29): the account's keys changed, open streams re-check them; absent: new events.
 */
interface WakeMessage {
  ns: string;
  key: number | null;
  origin: string;
  topic?: "keys";
}

/** A process's Redis wake-up link (it publishes on the process's own client; closing that is the caller's). */
export interface RedisWake {
  /** Tells the other processes that the account (or, undefined, any account) may have new events. */
  publish(apiKeyId: number | undefined): void;
  /** Tells the other processes that the account's keys changed (issue 29). */
  publishKeys(accountId: number): void;
  /**
   * Feeds the other processes' wake-ups into `bus` (and their key-change hints into `keysBus`) until the
   * returned function is called.
   */
  listen(bus: WakeBus, keysBus?: WakeBus): () => Promise<void>;
}

/** Parses one message; undefined for anything that is not a wake-up of this namespace from another process. */
export function parseWakeMessage(
  text: string,
  ns: string,
  origin: string,
): { key: number | undefined; keys?: true } | undefined {
  let m: Partial<WakeMessage>;
  try {
    m = JSON.parse(text) as Partial<WakeMessage>;
  } catch {
    return undefined;
  }
  if (m === null || typeof m !== "object" || m.ns !== ns || m.origin === origin) return undefined;
  return {
    key: typeof m.key === "number" && Number.isSafeInteger(m.key) ? m.key : undefined,
    ...(m.topic === "keys" ? { keys: true as const } : {}),
  };
}

/**
 * Publishes on `pub` (the process's Redis client); a subscription needs a connection of its own (a subscribed
 * connection can issue nothing else), opened by `listen`. `namespace` tells this deployment's database (and
 * schema) apart from others on the same Redis.
 */
export function redisWake(pub: Redis, namespace: string): RedisWake {
  const origin = randomUUID();
  return {
    publish(apiKeyId) {
      const m: WakeMessage = { ns: namespace, key: apiKeyId ?? null, origin };
      pub.publish(REDIS_EVENTS_CHANNEL, JSON.stringify(m)).catch(() => {});
    },
    publishKeys(accountId) {
      const m: WakeMessage = { ns: namespace, key: accountId, origin, topic: "keys" };
      pub.publish(REDIS_EVENTS_CHANNEL, JSON.stringify(m)).catch(() => {});
    },
    listen(bus, keysBus) {
      // The client's own address and options; retried every second while Redis is away.
      const sub = pub.duplicate({ retryStrategy: () => 1_000 });
      let readyOnce = false;
      // Connection errors are retried by ioredis; without a listener they would be thrown.
      sub.on("error", () => {});
      // ioredis resubscribes after a reconnect; what was published meanwhile is only in the outbox: all re-read.
      sub.on("ready", () => {
        if (readyOnce) {
          bus.emit(undefined);
          keysBus?.emit(undefined);
        }
        readyOnce = true;
      });
      sub.on("message", (_channel: string, text: string) => {
        const w = parseWakeMessage(text, namespace, origin);
        if (w === undefined) return;
        if (w.keys === true) keysBus?.emit(w.key);
        else bus.emit(w.key);
      });
      sub.subscribe(REDIS_EVENTS_CHANNEL).catch(() => {});
      return async () => {
        await sub.quit().catch(() => sub.disconnect());
      };
    },
  };
}
